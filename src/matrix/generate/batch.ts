// Batches of small random square matrices for batched SpMM (`spbench gen --batch`).
import type { CsrMatrix } from '../types.js';
import { UserError } from '../../util/errors.js';
import { ColumnSampler } from './columns.js';
import type { Range } from './range.js';
import { rngFor } from './rng.js';

export interface BatchOptions {
  batch: number;
  /** rows = cols of each matrix, drawn uniformly per matrix from the range */
  dim: Range;
  /** nonzeros of every row of a matrix, drawn uniformly per matrix; clamped to the matrix's dim */
  nnzRow: Range;
  seed: number;
  /** called after each matrix with (done, total) */
  onProgress?: (done: number, total: number) => void;
}

/** Largest batch: matrix i uses PRNG stream i, a 32-bit index. */
const MAX_BATCH = 2 ** 32 - 1;

/**
 * Square matrices; in matrix i (generated from stream i of the seed alone, so it is the same in
 * every batch size), every row has exactly min(nnzRow_i, dim_i) distinct sorted columns with
 * values in (-1, 1).
 */
export function generateBatch(opts: BatchOptions): CsrMatrix[] {
  const { batch, dim, nnzRow, seed } = opts;
  if (!Number.isSafeInteger(batch) || batch < 1 || batch > MAX_BATCH) {
    throw new UserError(`--batch must be an integer from 1 to ${MAX_BATCH}, got ${batch}`);
  }
  checkRange(dim, '--dim');
  checkRange(nnzRow, '--nnz-row');
  if (dim.max > 2 ** 31 - 1) throw new UserError(`--dim must be at most ${2 ** 31 - 1}, got ${dim.max}`);
  if (dim.max * Math.min(nnzRow.max, dim.max) > 2 ** 31 - 1) {
    throw new UserError(`--dim ${dim.max} with --nnz-row ${nnzRow.max} gives more than 2^31-1 nonzeros in one matrix`);
  }
  const sampler = new ColumnSampler();
  const out: CsrMatrix[] = [];
  for (let i = 0; i < batch; i++) {
    const rng = rngFor(seed, i);
    const n = rng.between(dim.min, dim.max);
    const k = Math.min(rng.between(nnzRow.min, nnzRow.max), n);
    const nnz = n * k;
    const rowPtr = new Int32Array(n + 1);
    const colIdx = new Int32Array(nnz);
    const values = new Float64Array(nnz);
    for (let r = 0; r < n; r++) {
      sampler.draw(rng, n, k, colIdx, r * k);
      rowPtr[r + 1] = (r + 1) * k;
    }
    for (let e = 0; e < nnz; e++) values[e] = rng.value();
    out.push({ rows: n, cols: n, rowPtr, colIdx, values });
    opts.onProgress?.(i + 1, batch);
  }
  return out;
}

function checkRange(r: Range, what: string): void {
  if (!Number.isSafeInteger(r.min) || !Number.isSafeInteger(r.max) || r.min < 1 || r.min > r.max) {
    throw new UserError(`${what} must be a range of positive integers with min <= max, got ${r.min}:${r.max}`);
  }
}
