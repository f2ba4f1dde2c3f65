// Turns an SpgemmRequest into cases: every input (file or generator spec) × precision is one
// native run and one case. C = A·A unless --b names the second operand.
import { basename } from 'node:path';
import type { Precision, SpgemmRequest } from './api.js';
import type { Params, PlannedCase } from './spmm-plan.js';

export type SpgemmSource = { kind: 'file'; path: string } | { kind: 'gen'; spec: string };

export interface SpgemmCasePlan extends PlannedCase {
  source: SpgemmSource;
  /** second operand file; undefined means C = A·A */
  b?: string;
  precision: Precision;
}

export function sourceName(s: SpgemmSource): string {
  return s.kind === 'file' ? basename(s.path) : s.spec;
}

export function planSpgemm(req: SpgemmRequest): SpgemmCasePlan[] {
  const sources: SpgemmSource[] = [
    ...req.inputs.map((path) => ({ kind: 'file' as const, path })),
    ...req.gen.map((spec) => ({ kind: 'gen' as const, spec })),
  ];
  const out: SpgemmCasePlan[] = [];
  for (const source of sources) {
    const a = sourceName(source);
    const product = req.b ? `${a}*${basename(req.b)}` : a;
    for (const precision of req.precision) {
      const params: Params = { a, b: req.b ? basename(req.b) : a, precision, seed: req.seed };
      out.push({
        id: `spgemm/${product}/${precision}`,
        label: `${req.b ? `${a} · ${basename(req.b)}` : `${a} squared`} · ${precision}`,
        params,
        source,
        ...(req.b ? { b: req.b } : {}),
        precision,
      });
    }
  }
  return out;
}
