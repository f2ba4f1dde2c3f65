// Matrices with a few full rows and columns over a band (or over nothing): the structures where a
// single row of A or C is huge. Row i holds the band i-lo <= j <= i+hi (none without a band) and
// every long column; a long row holds all n columns. Long rows and columns sit at random positions.
import type { CsrMatrix } from '../types.js';
import { ColumnSampler, rowPtrOf } from './columns.js';
import { randomValues, type Rng } from './rng.js';
import type { LongrowSpec } from './spec.js';

export function generateLongrow(spec: LongrowSpec, rng: Rng): CsrMatrix {
  const { n, band } = spec;
  const sampler = new ColumnSampler();
  const longRows = new Int32Array(spec.longRows);
  sampler.draw(rng, n, spec.longRows, longRows, 0);
  const longCols = new Int32Array(spec.longCols);
  sampler.draw(rng, n, spec.longCols, longCols, 0);
  const full = new Uint8Array(n);
  for (const r of longRows) full[r] = 1;
  // band of row i: [first, last], empty (first > last) without a band
  const first = (i: number) => (band ? Math.max(0, i - band.lo) : 1);
  const last = (i: number) => (band ? Math.min(n - 1, i + band.hi) : 0);
  const length = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    if (full[i]) length[i] = n;
    else {
      const a = first(i);
      const b = last(i);
      const inBand = a <= b ? lowerBound(longCols, b + 1) - lowerBound(longCols, a) : 0;
      length[i] = Math.max(0, b - a + 1) + longCols.length - inBand;
    }
  }
  const rowPtr = rowPtrOf(length);
  const colIdx = new Int32Array(rowPtr[n]);
  let e = 0;
  for (let i = 0; i < n; i++) {
    if (full[i]) {
      for (let j = 0; j < n; j++) colIdx[e++] = j;
      continue;
    }
    const a = first(i);
    const b = last(i);
    let q = 0;
    for (; q < longCols.length && longCols[q] < a; q++) colIdx[e++] = longCols[q];
    for (let j = a; j <= b; j++) colIdx[e++] = j;
    for (; q < longCols.length && longCols[q] <= b; q++);
    for (; q < longCols.length; q++) colIdx[e++] = longCols[q];
  }
  return { rows: n, cols: n, rowPtr, colIdx, values: randomValues(rng, e) };
}

/** First index of sorted a whose value is >= x. */
function lowerBound(a: Int32Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
