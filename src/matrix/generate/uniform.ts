// Uniform random matrices (K distinct random columns per row) and banded matrices; values in (-1, 1).
import type { CsrMatrix } from '../types.js';
import { ColumnSampler } from './columns.js';
import { randomValues, type Rng } from './rng.js';

export function generateUniform(spec: { rows: number; cols: number; nnzRow: number }, rng: Rng): CsrMatrix {
  const { rows, cols, nnzRow: k } = spec;
  const nnz = rows * k;
  const rowPtr = new Int32Array(rows + 1);
  const colIdx = new Int32Array(nnz);
  const sampler = new ColumnSampler();
  for (let r = 0; r < rows; r++) {
    sampler.draw(rng, cols, k, colIdx, r * k);
    rowPtr[r + 1] = (r + 1) * k;
  }
  return { rows, cols, rowPtr, colIdx, values: randomValues(rng, nnz) };
}

/** Square n x n with every entry |i - j| <= bw present. */
export function generateBanded(spec: { n: number; bw: number }, rng: Rng): CsrMatrix {
  const { n, bw } = spec;
  const rowPtr = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) rowPtr[i + 1] = rowPtr[i] + Math.min(n - 1, i + bw) - Math.max(0, i - bw) + 1;
  const colIdx = new Int32Array(rowPtr[n]);
  let e = 0;
  for (let i = 0; i < n; i++) {
    for (let j = Math.max(0, i - bw), end = Math.min(n - 1, i + bw); j <= end; j++) colIdx[e++] = j;
  }
  return { rows: n, cols: n, rowPtr, colIdx, values: randomValues(rng, e) };
}
