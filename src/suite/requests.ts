// A suite case → the request the spmm / spgemm core runs (src/bench/api.ts).
import type { SpgemmRequest, SpmmRequest } from '../bench/api.js';
import type { BackendChoice } from '../kinds.js';
import type { SpgemmCase, SpmmCase, SuiteCase } from './schema.js';

/** The case without its suite fields (op, name, description), with the run's backend. */
export function spmmRequest(c: SpmmCase, backend: BackendChoice): SpmmRequest {
  const { op: _op, name: _name, description: _d, ...req } = c;
  return { ...req, backend };
}

export function spgemmRequest(c: SpgemmCase, backend: BackendChoice): SpgemmRequest {
  const { op: _op, name: _name, description: _d, ...req } = c;
  return { ...req, backend };
}

/** One line describing a case, for progress output. */
export function describeCase(c: SuiteCase): string {
  const runs = (c.repeat ?? 1) > 1 ? ` ×${c.repeat} runs` : '';
  if (c.op === 'spgemm') {
    const b = c.genB !== undefined ? ` · ${c.genB}` : c.b !== undefined ? ` · ${c.b}` : '';
    return `spgemm ${[...c.gen, ...c.inputs].join(' ')}${b} ${c.precision.join(',')}${runs}`;
  }
  const rows = c.graph !== undefined ? `${c.graph} graphs` : `nnz/row ${c.nnzRow.join(',')}`;
  const axes = c.matrices ? `matrices ${c.matrices.length}` : `batch ${c.batch.join(',')} dim ${c.dim.join(',')} ${rows}`;
  return `spmm ${axes} n_B ${c.nb.join(',')} ${c.precision.join(',')} ${c.mode.join(',')}${runs}`;
}
