// Turns an SpgemmRequest into cases: every input (file or generator spec) × precision is one
// native run and one case. C = A·A unless the request names a second operand (a file, --b, or a
// generator spec, --gen-b). Files are known by their resolved path and shown by the shortest path
// suffix that tells them apart (src/util/path-names.ts); two cases with one id are an error.
import type { SpgemmRequest } from './api.js';
import type { CacheState, SpgemmPrecision } from '../kinds.js';
import { cacheTag, type Params, type PlannedCase } from './spmm-plan.js';
import { UserError } from '../util/errors.js';
import { assertUniqueIds, distinctNames, resolvedPath } from '../util/path-names.js';

export type SpgemmSource = { kind: 'file'; path: string } | { kind: 'gen'; spec: string };

export interface SpgemmCasePlan extends PlannedCase {
  source: SpgemmSource;
  /** readable name of A (id and label) */
  aName: string;
  /** second operand; undefined means C = A·A */
  b?: SpgemmSource;
  bName?: string;
  precision: SpgemmPrecision;
  cache: CacheState;
}

/** What identifies an operand's data: its resolved path, or its generator spec. */
export function sourceKey(s: SpgemmSource): string {
  return s.kind === 'file' ? `file:${resolvedPath(s.path)}` : `gen:${s.spec}`;
}

export function planSpgemm(req: SpgemmRequest): SpgemmCasePlan[] {
  if (req.b !== undefined && req.genB !== undefined) throw new UserError('--gen-b: cannot be combined with --b (give one second operand)');
  const sources: SpgemmSource[] = [
    ...req.inputs.map((path) => ({ kind: 'file' as const, path })),
    ...req.gen.map((spec) => ({ kind: 'gen' as const, spec })),
  ];
  const bSource: SpgemmSource | undefined =
    req.b !== undefined ? { kind: 'file', path: req.b } : req.genB !== undefined ? { kind: 'gen', spec: req.genB } : undefined;
  // files are named together so that a/m.mtx and b/m.mtx (A or B) keep their folders
  const filePaths = [...req.inputs, ...(req.b !== undefined ? [req.b] : [])];
  const fileNames = new Map<string, string>();
  distinctNames(filePaths).forEach((name, i) => fileNames.set(resolvedPath(filePaths[i]), name));
  const nameOf = (s: SpgemmSource): string => (s.kind === 'file' ? fileNames.get(resolvedPath(s.path))! : s.spec);
  const bName = bSource ? nameOf(bSource) : undefined;

  const out: SpgemmCasePlan[] = [];
  for (const source of sources) {
    const a = nameOf(source);
    const product = bName !== undefined ? `${a}*${bName}` : a;
    for (const precision of req.precision) {
      for (const cache of req.cache ?? ['hot']) {
        const tag = cacheTag(cache, req.cache ?? ['hot']);
        const params: Params = { a, b: bName ?? a, precision, seed: req.seed, ...tag.params };
        out.push({
          id: `spgemm/${product}/${precision}${tag.id}`,
          label: `${bName !== undefined ? `${a} · ${bName}` : `${a} squared`} · ${precision}${tag.label}`,
          params,
          source,
          aName: a,
          ...(bSource ? { b: bSource, bName } : {}),
          precision,
          cache,
        });
      }
    }
  }
  assertUniqueIds(out.map((p) => p.id), (id) => new UserError(`spgemm: two cases would have the id ${id} (an input given twice?)`));
  return out;
}
