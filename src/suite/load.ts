// Loads a suite file: JSON → defaults checked → defaults merged into each case → schema.
// Every problem is a UserError naming the file and the JSON path, e.g.
// "suites/x.json: cases[1].nb[0]: expected number, received string".
import { dirname, isAbsolute, resolve } from 'node:path';
import { readJsonFile } from '../report/load-results.js';
import { describeIssues } from '../report/issues.js';
import { expandSetRef } from '../matrix/sets.js';
import { UserError } from '../util/errors.js';
import { SpgemmCase, SpmmCase, Suite, SuiteDefaults } from './schema.js';

const KEYS = {
  spmm: new Set(Object.keys(SpmmCase.shape)),
  spgemm: new Set(Object.keys(SpgemmCase.shape)),
};

/** Copies the defaults a case's op understands under the case's own fields. */
function withDefaults(rawCase: unknown, defaults: Record<string, unknown>): unknown {
  if (!rawCase || typeof rawCase !== 'object' || Array.isArray(rawCase)) return rawCase;
  const op = (rawCase as { op?: unknown }).op;
  const keys = op === 'spmm' || op === 'spgemm' ? KEYS[op] : undefined;
  if (!keys) return rawCase;
  const picked = Object.fromEntries(Object.entries(defaults).filter(([k]) => keys.has(k)));
  return { ...picked, ...rawCase };
}

/**
 * Validates a parsed suite; `file` names it in errors and anchors relative matrix paths. Entries
 * "set:NAME" in matrices/inputs become the set's fetched archives (sets.ts); `log` says what is missing.
 */
export function parseSuite(obj: unknown, file: string, log: (s: string) => void = (s) => process.stderr.write(`spbench: ${s}\n`)): Suite {
  if (!obj || typeof obj !== 'object' || Array.isArray(obj)) throw new UserError(`${file}: (top level): expected an object with "name" and "cases"`);
  const raw = obj as Record<string, unknown>;
  if (raw.defaults !== undefined) {
    const d = SuiteDefaults.safeParse(raw.defaults);
    if (!d.success) throw new UserError(`invalid suite ${describeIssues(file, d.error.issues.map((i) => ({ ...i, path: ['defaults', ...i.path] })))}`);
  }
  const defaults = raw.defaults && typeof raw.defaults === 'object' ? (raw.defaults as Record<string, unknown>) : {};
  const merged = Array.isArray(raw.cases) ? { ...raw, cases: raw.cases.map((c) => withDefaults(c, defaults)) } : raw;
  const r = Suite.safeParse(merged);
  if (!r.success) throw new UserError(`invalid suite ${describeIssues(file, r.error.issues)}`);
  const base = dirname(file);
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(base, p));
  const paths = (list: string[]) => list.flatMap((p) => (p.startsWith('set:') ? expandSetRef(p, log) : [abs(p)]));
  for (const c of r.data.cases) {
    if (c.op === 'spmm' && c.matrices) c.matrices = paths(c.matrices);
    if (c.op === 'spgemm') {
      if (c.inputs) c.inputs = paths(c.inputs);
      if (c.b) c.b = abs(c.b);
    }
  }
  return r.data;
}

export async function loadSuite(path: string): Promise<Suite> {
  return parseSuite(await readJsonFile(path, 'suite file'), path);
}
