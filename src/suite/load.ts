// Loads a suite file: JSON → defaults checked → defaults merged into each case → relative paths
// resolved next to the suite → each case checked by its op's request schema (the command line's).
// Every problem is a UserError naming the file and the JSON path, e.g.
// "suites/x.json: cases[1].nb: --nb: '0' is not a positive integer".
import { dirname, isAbsolute, resolve } from 'node:path';
import type { z } from 'zod';
import { readJsonFile } from '../util/json-file.js';
import { describeIssues } from '../util/zod-issues.js';
import { expandSetRef } from '../matrix/sets.js';
import { UserError } from '../util/errors.js';
import { CASE_FIELDS, SpgemmCase, SpmmCase, SuiteDefaults, SuiteShell, type Suite, type SuiteCase } from './schema.js';
import type { Op } from '../kinds.js';
import { REQUEST_DEFAULTS } from '../bench/request-defaults.js';

const PATH_FIELDS = ['matrices', 'inputs', 'b', 'kernel'];
/** Fields that describe a generated spmm batch: a case with "matrices" takes none of them from defaults. */
const GENERATED_BATCH = ['batch', 'dim', 'nnzRow', 'graph'];

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** Copies the defaults a case's op understands under the case's own fields. */
function withDefaults(c: Record<string, unknown>, op: Op, defaults: Record<string, unknown>): Record<string, unknown> {
  const keys = new Set<string>(CASE_FIELDS[op]);
  if (op === 'spmm' && c.matrices !== undefined) for (const k of GENERATED_BATCH) keys.delete(k);
  // a graph batch's rows come from its graphs: a default nnzRow does not apply to it (nor a default graph to a case with nnzRow)
  if (op === 'spmm' && c.graph !== undefined) keys.delete('nnzRow');
  if (op === 'spmm' && c.nnzRow !== undefined) keys.delete('graph');
  const picked = Object.fromEntries(Object.entries(defaults).filter(([k]) => keys.has(k)));
  return { ...picked, ...c };
}

/** Matrix paths of a case are relative to the suite file. */
// Relative paths are anchored at the suite's folder; list entries "set:NAME" (matrices, inputs) become the set's
// fetched archives (matrix/sets.ts), and `log` says which of the set are missing.
function resolvePaths(c: Record<string, unknown>, base: string, log: (s: string) => void): Record<string, unknown> {
  const abs = (p: unknown) => (typeof p === 'string' && p.trim() !== '' && !isAbsolute(p) ? resolve(base, p) : p);
  const item = (p: unknown): unknown[] => (typeof p === 'string' && p.startsWith('set:') ? expandSetRef(p, log) : [abs(p)]);
  const out = { ...c };
  for (const k of PATH_FIELDS) {
    if (typeof out[k] === 'string' && !(out[k] as string).startsWith('set:')) out[k] = abs(out[k]);
    else if (typeof out[k] === 'string' || Array.isArray(out[k])) out[k] = ([] as unknown[]).concat(out[k]).flatMap(item);
  }
  return out;
}

function fail(file: string, issues: readonly z.core.$ZodIssue[], prefix: PropertyKey[] = []): never {
  throw new UserError(`invalid suite ${describeIssues(file, issues.map((i) => ({ ...i, path: [...prefix, ...i.path] })))}`);
}

/**
 * Validates a parsed suite; `file` names it in errors and anchors relative matrix paths. Entries "set:NAME" in
 * matrices/inputs become the set's fetched archives; `log` says what is missing.
 */
export function parseSuite(obj: unknown, file: string, log: (s: string) => void = (s) => process.stderr.write(`spbench: ${s}\n`)): Suite {
  if (!isObject(obj)) throw new UserError(`${file}: (top level): expected an object with "name" and "cases"`);
  if (obj.defaults !== undefined) {
    const d = SuiteDefaults.safeParse(obj.defaults);
    if (!d.success) fail(file, d.error.issues, ['defaults']);
  }
  const shell = SuiteShell.safeParse(obj);
  if (!shell.success) fail(file, shell.error.issues);
  const defaults = shell.data.defaults ?? {};
  const base = dirname(file);
  const cases: SuiteCase[] = [];
  const seen = new Map<string, number>();
  shell.data.cases.forEach((raw, i) => {
    if (!isObject(raw)) throw new UserError(`invalid suite ${file}: cases[${i}]: expected an object`);
    const op = raw.op;
    if (op !== 'spmm' && op !== 'spgemm') throw new UserError(`invalid suite ${file}: cases[${i}].op: Invalid discriminator value: expected "spmm" or "spgemm"`);
    // a suite samples until the noise is low (--samples auto) unless it or its case says otherwise
    const merged = resolvePaths(withDefaults(raw, op, { samples: REQUEST_DEFAULTS.samples, ...defaults }), base, log);
    const r = op === 'spmm' ? SpmmCase.safeParse(merged) : SpgemmCase.safeParse(merged);
    if (!r.success) fail(file, r.error.issues, ['cases', i]);
    const c = r.data;
    if (seen.has(c.name)) throw new UserError(`invalid suite ${file}: cases[${i}].name: duplicate case name "${c.name}" (also cases[${seen.get(c.name)}])`);
    seen.set(c.name, i);
    cases.push(c);
  });
  return { name: shell.data.name, ...(shell.data.description !== undefined ? { description: shell.data.description } : {}), cases };
}

export async function loadSuite(path: string): Promise<Suite> {
  return parseSuite(await readJsonFile(path, 'suite file'), path);
}
