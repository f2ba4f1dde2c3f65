// Shared helpers for the matrix-io tests: a scratch directory per test file (with the parse cache
// pointed into it) and a dense view of a CSR matrix for readable expectations.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CsrMatrix } from '../src/matrix/types.js';

export function scratchDir(tag: string): string {
  const dir = mkdtempSync(join(tmpdir(), `spbench-${tag}-`));
  process.env.SPBENCH_CACHE_DIR = join(dir, 'cache');
  return dir;
}

export function writeText(dir: string, name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

export function dense(m: CsrMatrix): number[][] {
  const out = Array.from({ length: m.rows }, () => new Array<number>(m.cols).fill(0));
  for (let r = 0; r < m.rows; r++) for (let k = m.rowPtr[r]; k < m.rowPtr[r + 1]; k++) out[r][m.colIdx[k]] = m.values[k];
  return out;
}

export function plain(m: CsrMatrix) {
  return { rows: m.rows, cols: m.cols, rowPtr: Array.from(m.rowPtr), colIdx: Array.from(m.colIdx), values: Array.from(m.values) };
}

export function csrOf(rows: number, cols: number, rowPtr: number[], colIdx: number[], values: number[]): CsrMatrix {
  return { rows, cols, rowPtr: Int32Array.from(rowPtr), colIdx: Int32Array.from(colIdx), values: Float64Array.from(values) };
}
