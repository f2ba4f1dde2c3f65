// Shared checks for generator tests (no tests of its own).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { CsrMatrix } from '../src/matrix/types.js';

/** Asserts canonical CSR: row pointers consistent, columns in range, strictly increasing per row. */
export function assertCanonical(m: CsrMatrix): void {
  assert.equal(m.rowPtr.length, m.rows + 1);
  assert.equal(m.rowPtr[0], 0);
  const nnz = m.rowPtr[m.rows];
  assert.equal(m.colIdx.length, nnz);
  assert.equal(m.values.length, nnz);
  for (let i = 0; i < m.rows; i++) {
    assert.ok(m.rowPtr[i + 1] >= m.rowPtr[i], `row pointer decreases at row ${i}`);
    for (let p = m.rowPtr[i]; p < m.rowPtr[i + 1]; p++) {
      const j = m.colIdx[p];
      assert.ok(j >= 0 && j < m.cols, `column ${j} out of range in row ${i}`);
      if (p > m.rowPtr[i]) assert.ok(j > m.colIdx[p - 1], `row ${i} columns not strictly increasing`);
    }
  }
}

/** Columns of row i. */
export function rowCols(m: CsrMatrix, i: number): number[] {
  return Array.from(m.colIdx.subarray(m.rowPtr[i], m.rowPtr[i + 1]));
}

/** sha256 of the matrices' dims and arrays, serialized little-endian whatever the host's byte order. */
export function hashMatrices(mats: CsrMatrix[]): string {
  const h = createHash('sha256');
  for (const m of mats) {
    const head = Buffer.alloc(8);
    head.writeUInt32LE(m.rows, 0);
    head.writeUInt32LE(m.cols, 4);
    h.update(head);
    const ints = Buffer.alloc(4 * (m.rowPtr.length + m.colIdx.length));
    let o = 0;
    for (const v of m.rowPtr) o = ints.writeInt32LE(v, o);
    for (const v of m.colIdx) o = ints.writeInt32LE(v, o);
    h.update(ints);
    const vals = Buffer.alloc(8 * m.values.length);
    m.values.forEach((v, i) => vals.writeDoubleLE(v, 8 * i));
    h.update(vals);
  }
  return h.digest('hex');
}
