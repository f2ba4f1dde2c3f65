// R-MAT graphs (Chakrabarti, Zhan, Faloutsos 2004): each edge picks one quadrant of the adjacency
// matrix per level, with probabilities a (top-left), b (top-right), c (bottom-left) and
// d = 1 - a - b - c, down to a single cell. Duplicate edges merge into one entry; self-loops stay.
// No noise or vertex permutation is applied, so vertex 0 is the heaviest (the plain model).
import type { CsrMatrix } from '../types.js';
import type { Rng } from './rng.js';

export interface RmatSpec {
  scale: number;
  ef: number;
  a: number;
  b: number;
  c: number;
}

const TWO32 = 4294967296;

export function generateRmat(spec: RmatSpec, rng: Rng): CsrMatrix {
  const n = 2 ** spec.scale;
  const edges = spec.ef * n;
  // Compare raw 32-bit draws with integer thresholds: exact, and no float draw per level.
  const ta = threshold(spec.a);
  const tab = threshold(spec.a + spec.b);
  const tabc = threshold(spec.a + spec.b + spec.c);
  const src = new Int32Array(edges);
  const dst = new Int32Array(edges);
  for (let e = 0; e < edges; e++) {
    let r = 0;
    let c = 0;
    for (let bit = n >>> 1; bit > 0; bit >>>= 1) {
      const u = rng.nextU32();
      if (u < ta) continue;
      if (u < tab) c |= bit;
      else if (u < tabc) r |= bit;
      else {
        r |= bit;
        c |= bit;
      }
    }
    src[e] = r;
    dst[e] = c;
  }
  const m = cooPatternToCsr(n, n, src, dst);
  for (let e = 0; e < m.values.length; e++) m.values[e] = rng.value();
  return m;
}

function threshold(p: number): number {
  return Math.min(TWO32, Math.round(p * TWO32));
}

/**
 * CSR pattern (values left zero) of coordinate pairs, with duplicates merged: a counting sort by
 * column, then a stable counting sort by row, leaves every row's columns ascending in O(nnz + n).
 */
export function cooPatternToCsr(rows: number, cols: number, rowIdx: Int32Array, colIdx: Int32Array): CsrMatrix {
  const count = rowIdx.length;
  const colStart = new Int32Array(cols + 1);
  for (let e = 0; e < count; e++) colStart[colIdx[e] + 1]++;
  for (let j = 0; j < cols; j++) colStart[j + 1] += colStart[j];
  const rowsByCol = new Int32Array(count);
  for (let e = 0; e < count; e++) rowsByCol[colStart[colIdx[e]]++] = rowIdx[e];
  // colStart[j] is now the end of column j, i.e. the start of column j + 1

  const rowPtr = new Int32Array(rows + 1);
  for (let e = 0; e < count; e++) rowPtr[rowIdx[e] + 1]++;
  for (let i = 0; i < rows; i++) rowPtr[i + 1] += rowPtr[i];
  const next = rowPtr.slice(0, rows);
  const sorted = new Int32Array(count);
  let e = 0;
  for (let j = 0; j < cols; j++) {
    for (const end = colStart[j]; e < end; e++) sorted[next[rowsByCol[e]]++] = j;
  }

  // Merge duplicates (adjacent after sorting), compacting in place.
  let w = 0;
  let start = 0;
  for (let i = 0; i < rows; i++) {
    const end = rowPtr[i + 1];
    let prev = -1;
    for (let p = start; p < end; p++) {
      const j = sorted[p];
      if (j !== prev) sorted[w++] = j;
      prev = j;
    }
    start = end;
    rowPtr[i + 1] = w;
  }
  return { rows, cols, rowPtr, colIdx: sorted.slice(0, w), values: new Float64Array(w) };
}
