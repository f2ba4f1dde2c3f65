// Turns zod issues into one clear sentence naming the file and the JSON path of the bad field,
// e.g. "suite.json: cases[2].nb[0]: expected number, received string". Suites and result files share it.
import type { z } from 'zod';

/** JSON path in the usual notation: `cases[2].nb[0]`; the root is "(top level)". */
export function jsonPath(path: readonly PropertyKey[]): string {
  let s = '';
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : `${s ? '.' : ''}${String(p)}`;
  return s || '(top level)';
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    // Name the unknown field itself (typos such as "nnz_row" for "nnzRow").
    return issue.keys.map((k) => `${jsonPath([...issue.path, k])}: unknown field`).join('; ');
  }
  if (issue.code === 'invalid_union' && issue.errors.length) return describeUnion(issue.path, issue.errors);
  const msg = issue.message.replace(/^Invalid input: /, '');
  return `${jsonPath(issue.path)}: ${msg}`;
}

/**
 * A value that matched no branch of a union (e.g. "a number or a list of numbers"): report the
 * branch that got furthest into the value, else the most specific message at the value itself.
 */
function describeUnion(path: PropertyKey[], branches: z.core.$ZodIssue[][]): string {
  const firsts = branches.map((b) => b[0]).filter((i): i is z.core.$ZodIssue => !!i);
  const deepest = [...firsts].sort((a, b) => b.path.length - a.path.length)[0];
  if (deepest && deepest.path.length > 0) return describeIssue({ ...deepest, path: [...path, ...deepest.path] });
  const specific = firsts.find((i) => i.code !== 'invalid_type');
  if (specific) return describeIssue({ ...specific, path });
  const expected = [...new Set(firsts.map((i) => (i.code === 'invalid_type' ? String(i.expected) : '?')))];
  const received = /received (\w+)/.exec(firsts[0]?.message ?? '')?.[1];
  return `${jsonPath(path)}: expected ${expected.join(' or ')}${received ? `, received ${received}` : ''}`;
}

/** At most `max` issues, joined; the rest are counted. */
export function describeIssues(file: string, issues: readonly z.core.$ZodIssue[], max = 3): string {
  const shown = issues.slice(0, max).map(describeIssue);
  const more = issues.length > max ? ` (and ${issues.length - max} more problems)` : '';
  return `${file}: ${shown.join('; ')}${more}`;
}
