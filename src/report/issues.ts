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
  const msg = issue.message.replace(/^Invalid input: /, '');
  return `${jsonPath(issue.path)}: ${msg}`;
}

/** At most `max` issues, joined; the rest are counted. */
export function describeIssues(file: string, issues: readonly z.core.$ZodIssue[], max = 3): string {
  const shown = issues.slice(0, max).map(describeIssue);
  const more = issues.length > max ? ` (and ${issues.length - max} more problems)` : '';
  return `${file}: ${shown.join('; ')}${more}`;
}
