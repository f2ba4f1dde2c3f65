// Figures about a matrix for `spbench info`: shape, nnz/row distribution, symmetry, band, and the
// work of A·A (intermediate products, which the SpGEMM GFLOPS figure counts).
import { transposeCsr } from './csr.js';
import type { CsrMatrix } from './types.js';

export interface Distribution {
  min: number;
  max: number;
  mean: number;
  /** population standard deviation */
  stddev: number;
}

export interface MatrixStats {
  rows: number;
  cols: number;
  nnz: number;
  nnzPerRow: Distribution;
  emptyRows: number;
  /** stored entries on the diagonal */
  diagonal: number;
  /** max |i - j| over stored entries (0 when there are none) */
  bandwidth: number;
  /** null when not square */
  symmetricPattern: boolean | null;
  /** values equal to the transpose's, bit for bit; null when not square */
  symmetricValues: boolean | null;
  /** intermediate products of A·A = sum over entries a_ik of nnz(row k); null when not square */
  productsAA: number | null;
  /** the largest number of products of one row of A·A */
  productsAARowMax: number | null;
  /** nnz(A·A), only when asked for (it costs a pass over all products); null otherwise */
  nnzAA: number | null;
}

export function matrixStats(m: CsrMatrix, opts: { nnzAA?: boolean } = {}): MatrixStats {
  const { rows, cols, rowPtr, colIdx } = m;
  const nnz = rowPtr[rows];
  const square = rows === cols;
  let diagonal = 0;
  let bandwidth = 0;
  const lengths = new Float64Array(rows);
  let emptyRows = 0;
  for (let i = 0; i < rows; i++) {
    const start = rowPtr[i];
    const end = rowPtr[i + 1];
    lengths[i] = end - start;
    if (end === start) emptyRows++;
    for (let p = start; p < end; p++) {
      const d = colIdx[p] - i;
      if (d === 0) diagonal++;
      const a = d < 0 ? -d : d;
      if (a > bandwidth) bandwidth = a;
    }
  }
  const sym = square ? symmetry(m) : null;
  const products = square ? productsOfSquare(m) : null;
  return {
    rows,
    cols,
    nnz,
    nnzPerRow: distribution(lengths),
    emptyRows,
    diagonal,
    bandwidth,
    symmetricPattern: sym ? sym.pattern : null,
    symmetricValues: sym ? sym.values : null,
    productsAA: products ? products.total : null,
    productsAARowMax: products ? products.rowMax : null,
    nnzAA: square && opts.nnzAA ? nnzOfSquare(m) : null,
  };
}

export function distribution(xs: ArrayLike<number>): Distribution {
  const n = xs.length;
  if (n === 0) return { min: 0, max: 0, mean: 0, stddev: 0 };
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const x = xs[i];
    if (x < min) min = x;
    if (x > max) max = x;
    sum += x;
  }
  const mean = sum / n;
  let sq = 0;
  for (let i = 0; i < n; i++) sq += (xs[i] - mean) ** 2;
  return { min, max, mean, stddev: Math.sqrt(sq / n) };
}

/** Compares A with its transpose (canonical CSR on both sides, so the arrays compare directly). */
function symmetry(m: CsrMatrix): { pattern: boolean; values: boolean } {
  const t = transposeCsr(m);
  const nnz = m.rowPtr[m.rows];
  for (let i = 1; i <= m.rows; i++) if (t.rowPtr[i] !== m.rowPtr[i]) return { pattern: false, values: false };
  for (let p = 0; p < nnz; p++) if (t.colIdx[p] !== m.colIdx[p]) return { pattern: false, values: false };
  for (let p = 0; p < nnz; p++) if (!Object.is(t.values[p], m.values[p])) return { pattern: true, values: false };
  return { pattern: true, values: true };
}

function productsOfSquare(m: CsrMatrix): { total: number; rowMax: number } {
  const { rows, rowPtr, colIdx } = m;
  let total = 0;
  let rowMax = 0;
  for (let i = 0; i < rows; i++) {
    let row = 0;
    for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
      const k = colIdx[p];
      row += rowPtr[k + 1] - rowPtr[k];
    }
    total += row;
    if (row > rowMax) rowMax = row;
  }
  return { total, rowMax };
}

/** nnz(A·A) by a symbolic Gustavson pass: a marker per column remembers the last row that hit it. */
function nnzOfSquare(m: CsrMatrix): number {
  const { rows, cols, rowPtr, colIdx } = m;
  const mark = new Int32Array(cols).fill(-1);
  let count = 0;
  for (let i = 0; i < rows; i++) {
    for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
      const k = colIdx[p];
      for (let q = rowPtr[k]; q < rowPtr[k + 1]; q++) {
        const j = colIdx[q];
        if (mark[j] !== i) {
          mark[j] = i;
          count++;
        }
      }
    }
  }
  return count;
}

export interface BatchStats {
  count: number;
  rows: Distribution;
  cols: Distribution;
  nnz: Distribution;
  totalNnz: number;
  nnzPerRow: Distribution;
  emptyRows: number;
}

/** Summary of a batch: per-matrix rows and nnz, and nnz/row over every row of every matrix. */
export function batchStats(mats: CsrMatrix[]): BatchStats {
  const rows = mats.map((m) => m.rows);
  const nnz = mats.map((m) => m.rowPtr[m.rows]);
  const totalRows = rows.reduce((a, b) => a + b, 0);
  const lengths = new Float64Array(totalRows);
  let r = 0;
  let emptyRows = 0;
  for (const m of mats) {
    for (let i = 0; i < m.rows; i++) {
      const len = m.rowPtr[i + 1] - m.rowPtr[i];
      lengths[r++] = len;
      if (len === 0) emptyRows++;
    }
  }
  return {
    count: mats.length,
    rows: distribution(rows),
    cols: distribution(mats.map((m) => m.cols)),
    nnz: distribution(nnz),
    totalNnz: nnz.reduce((a, b) => a + b, 0),
    nnzPerRow: distribution(lengths),
    emptyRows,
  };
}
