// A suite case → the request the spmm / spgemm core runs (src/bench/api.ts).
import type { BackendChoice, SpgemmRequest, SpmmRequest } from '../bench/api.js';
import type { SpgemmCase, SpmmCase, SuiteCase } from './schema.js';

export function spmmRequest(c: SpmmCase, backend: BackendChoice): SpmmRequest {
  return {
    batch: c.batch ?? [],
    dim: c.dim ?? [],
    nnzRow: c.nnzRow ?? [],
    nb: c.nb,
    precision: c.precision,
    mode: c.mode,
    layout: c.layout,
    methods: c.methods,
    ...(c.matrices ? { matrices: c.matrices } : {}),
    seed: c.seed,
    warmup: c.warmup,
    samples: c.samples,
    repeat: c.repeat,
    backend,
  };
}

export function spgemmRequest(c: SpgemmCase, backend: BackendChoice): SpgemmRequest {
  return {
    inputs: c.inputs ?? [],
    gen: c.gen ?? [],
    ...(c.b ? { b: c.b } : {}),
    precision: c.precision,
    methods: c.methods,
    seed: c.seed,
    warmup: c.warmup,
    samples: c.samples,
    repeat: c.repeat,
    breakdown: c.breakdown,
    explain: false,
    backend,
  };
}

/** One line describing a case, for progress output. */
export function describeCase(c: SuiteCase): string {
  const runs = c.repeat > 1 ? ` ×${c.repeat} runs` : '';
  if (c.op === 'spgemm') return `spgemm ${[...(c.gen ?? []), ...(c.inputs ?? [])].join(' ')} ${c.precision.join(',')}${runs}`;
  const axes = c.matrices ? `matrices ${c.matrices.length}` : `batch ${c.batch?.join(',')} dim ${c.dim?.join(',')} nnz/row ${c.nnzRow?.join(',')}`;
  return `spmm ${axes} n_B ${c.nb.join(',')} ${c.precision.join(',')} ${c.mode.join(',')}${runs}`;
}
