// Matrices defined by their row-length distribution: one entry a row (a scaled permutation), rows of
// a few distinct lengths (multi-modal), and an irregular band of random lengths with far entries.
import type { CsrMatrix } from '../types.js';
import { ColumnSampler, drawDistinct, RowMarks, rowPtrOf } from './columns.js';
import { randomValues, type Rng } from './rng.js';
import type { IrregularSpec, MultimodalSpec, PermSpec } from './spec.js';

/** Row i has one entry, at column p(i) for a random injection p of the rows into the columns. */
export function generatePerm(spec: PermSpec, rng: Rng): CsrMatrix {
  const { n, cols } = spec;
  const colIdx = new Int32Array(n);
  if (cols === n) for (let i = 0; i < n; i++) colIdx[i] = i;
  else new ColumnSampler().draw(rng, cols, n, colIdx, 0); // n distinct columns, sorted
  for (let i = n - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    const t = colIdx[i];
    colIdx[i] = colIdx[j];
    colIdx[j] = t;
  }
  const rowPtr = new Int32Array(n + 1);
  for (let i = 0; i <= n; i++) rowPtr[i] = i;
  return { rows: n, cols, rowPtr, colIdx, values: randomValues(rng, n) };
}

/** Row lengths drawn from lens with integer weights; distinct uniform random columns. */
export function generateMultimodal(spec: MultimodalSpec, rng: Rng): CsrMatrix {
  const { rows, cols, lens, weights } = spec;
  const total = weights.reduce((a, b) => a + b, 0);
  const length = new Int32Array(rows);
  for (let i = 0; i < rows; i++) {
    let t = rng.below(total);
    let q = 0;
    while (t >= weights[q]) t -= weights[q++];
    length[i] = lens[q];
  }
  const rowPtr = rowPtrOf(length);
  const colIdx = new Int32Array(rowPtr[rows]);
  const sampler = new ColumnSampler();
  for (let i = 0; i < rows; i++) sampler.draw(rng, cols, length[i], colIdx, rowPtr[i]);
  return { rows, cols, rowPtr, colIdx, values: randomValues(rng, colIdx.length) };
}

/**
 * Row i has a length uniform in [min, max]; each entry lies within 4·max of the diagonal, except
 * with probability far when it is uniform over all n columns (economic models: a band with a few
 * links across the whole system).
 */
export function generateIrregular(spec: IrregularSpec, rng: Rng): CsrMatrix {
  const { n, min, max, far } = spec;
  const window = 4 * max;
  const length = new Int32Array(n);
  for (let i = 0; i < n; i++) length[i] = rng.between(min, max);
  const rowPtr = rowPtrOf(length);
  const colIdx = new Int32Array(rowPtr[n]);
  const marks = new RowMarks();
  for (let i = 0; i < n; i++) {
    const lo = Math.max(0, i - window);
    const span = Math.min(n - 1, i + window) - lo + 1; // >= min(n, 4·max+1) >= the row's length
    drawDistinct(marks, n, length[i], () => (rng.chance(far) ? rng.below(n) : lo + rng.below(span)), colIdx, rowPtr[i]);
  }
  return { rows: n, cols: n, rowPtr, colIdx, values: randomValues(rng, colIdx.length) };
}
