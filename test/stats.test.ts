import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateBatch } from '../src/matrix/generate/index.js';
import { batchStats, matrixStats } from '../src/matrix/stats.js';
import type { CsrMatrix } from '../src/matrix/types.js';

/** CSR from a dense array (zeros are not stored). */
function csr(d: number[][], cols = d[0]?.length ?? 0): CsrMatrix {
  const rowPtr = [0];
  const colIdx: number[] = [];
  const values: number[] = [];
  for (const row of d) {
    row.forEach((v, j) => {
      if (v !== 0) {
        colIdx.push(j);
        values.push(v);
      }
    });
    rowPtr.push(colIdx.length);
  }
  return { rows: d.length, cols, rowPtr: Int32Array.from(rowPtr), colIdx: Int32Array.from(colIdx), values: Float64Array.from(values) };
}

test('hand-computed 3x3: counts, distribution, diagonal, band, products of A·A', () => {
  // rows: {0,1}, {2}, {0}
  const s = matrixStats(csr([[1, 2, 0], [0, 0, 3], [4, 0, 0]]), { nnzAA: true });
  assert.equal(s.rows, 3);
  assert.equal(s.cols, 3);
  assert.equal(s.nnz, 4);
  assert.deepEqual([s.nnzPerRow.min, s.nnzPerRow.max], [1, 2]);
  assert.ok(Math.abs(s.nnzPerRow.mean - 4 / 3) < 1e-15);
  assert.ok(Math.abs(s.nnzPerRow.stddev - Math.sqrt(2 / 9)) < 1e-15);
  assert.equal(s.emptyRows, 0);
  assert.equal(s.diagonal, 1);
  assert.equal(s.bandwidth, 2);
  assert.equal(s.symmetricPattern, false);
  assert.equal(s.symmetricValues, false);
  // row 0: nnz(row 0) + nnz(row 1) = 3; row 1: nnz(row 2) = 1; row 2: nnz(row 0) = 2
  assert.equal(s.productsAA, 6);
  assert.equal(s.productsAARowMax, 3);
  // A·A = [[1,2,6],[12,0,0],[4,8,0]]
  assert.equal(s.nnzAA, 6);
});

test('products merge in nnz(A·A); nnzAA only computed on request', () => {
  const full = csr([[1, 1], [1, 1]]);
  const s = matrixStats(full, { nnzAA: true });
  assert.equal(s.productsAA, 8);
  assert.equal(s.productsAARowMax, 4);
  assert.equal(s.nnzAA, 4);
  assert.equal(matrixStats(full).nnzAA, null);
});

test('symmetry: numeric, pattern only, and not square', () => {
  const sym = matrixStats(csr([[2, 1, 0], [1, 0, 5], [0, 5, 3]]));
  assert.deepEqual([sym.symmetricPattern, sym.symmetricValues], [true, true]);
  const pat = matrixStats(csr([[2, 1, 0], [1, 0, 5], [0, -5, 3]]));
  assert.deepEqual([pat.symmetricPattern, pat.symmetricValues], [true, false]);
  // same row counts as its transpose but a different pattern
  const shifted = matrixStats(csr([[0, 1, 0], [0, 0, 1], [1, 0, 0]]));
  assert.deepEqual([shifted.symmetricPattern, shifted.symmetricValues], [false, false]);
  const rect = matrixStats(csr([[1, 0, 2], [0, 3, 0]]), { nnzAA: true });
  assert.deepEqual([rect.rows, rect.cols, rect.nnz, rect.diagonal, rect.bandwidth], [2, 3, 3, 2, 2]);
  assert.deepEqual([rect.symmetricPattern, rect.symmetricValues, rect.productsAA, rect.productsAARowMax, rect.nnzAA], [null, null, null, null, null]);
});

test('empty rows and the empty matrix', () => {
  const s = matrixStats(csr([[0, 0, 0], [0, 7, 0], [0, 0, 0]]));
  assert.deepEqual([s.nnz, s.emptyRows, s.nnzPerRow.min, s.nnzPerRow.max, s.diagonal, s.bandwidth, s.symmetricValues], [1, 2, 0, 1, 1, 0, true]);
  const e = matrixStats({ rows: 0, cols: 0, rowPtr: new Int32Array(1), colIdx: new Int32Array(0), values: new Float64Array(0) }, { nnzAA: true });
  assert.deepEqual([e.nnz, e.emptyRows, e.nnzPerRow.mean, e.productsAA, e.nnzAA], [0, 0, 0, 0, 0]);
});

test('products and nnz(A·A) agree with a dense computation on random matrices', () => {
  for (const m of generateBatch({ batch: 5, dim: { min: 5, max: 30 }, nnzRow: { min: 1, max: 6 }, seed: 4 })) {
    const n = m.rows;
    let products = 0;
    const pattern = Array.from({ length: n }, () => new Array(n).fill(false));
    for (let i = 0; i < n; i++) {
      for (let p = m.rowPtr[i]; p < m.rowPtr[i + 1]; p++) {
        const k = m.colIdx[p];
        for (let q = m.rowPtr[k]; q < m.rowPtr[k + 1]; q++) {
          products++;
          pattern[i][m.colIdx[q]] = true;
        }
      }
    }
    const s = matrixStats(m, { nnzAA: true });
    assert.equal(s.productsAA, products);
    assert.equal(s.nnzAA, pattern.flat().filter(Boolean).length);
  }
});

test('batchStats summarises matrices and all their rows', () => {
  const b = batchStats([csr([[1, 0], [0, 0]]), csr([[1, 1, 1], [1, 0, 0], [0, 1, 0]])]);
  assert.equal(b.count, 2);
  assert.deepEqual([b.rows.min, b.rows.max, b.nnz.min, b.nnz.max, b.totalNnz], [2, 3, 1, 5, 6]);
  assert.deepEqual([b.nnzPerRow.min, b.nnzPerRow.max, b.nnzPerRow.mean, b.emptyRows], [0, 3, 6 / 5, 1]);
});
