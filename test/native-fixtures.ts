// Shared by the native tests: hand-made matrices written as .spb,
// the CPU backend built once per test run, and helpers for throw-away files.
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSpb as writeMatrices } from '../src/matrix/binary.js';
import type { CsrMatrix } from '../src/matrix/types.js';
import { buildExecutable } from '../src/native/build.js';

export interface SmallCsr {
  rows: number;
  cols: number;
  rowPtr: number[];
  colIdx: number[];
  values: number[];
}

function toCsr(m: SmallCsr): CsrMatrix {
  return { rows: m.rows, cols: m.cols, rowPtr: Int32Array.from(m.rowPtr), colIdx: Int32Array.from(m.colIdx), values: Float64Array.from(m.values) };
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `spbench-${prefix}-`));
}

/** Writes hand-made matrices as an .spb file (through the package's own writer); returns its path. */
export async function writeSpb(dir: string, name: string, mats: SmallCsr[], valueType: 'f32' | 'f64' = 'f64', indexWidth: 4 | 8 = 4): Promise<string> {
  const p = join(dir, name);
  await writeMatrices(p, mats.map(toCsr), { valueType, indexWidth });
  return p;
}

/** Writes an executable script (shebang included in `text`). */
export function writeScript(dir: string, name: string, text: string): string {
  mkdirSync(dir, { recursive: true });
  const p = join(dir, name);
  writeFileSync(p, text);
  chmodSync(p, 0o755);
  return p;
}

// One cache for the whole test run (and later runs): the build hash keeps it correct, and the
// build lock makes the test files that build it concurrently share one build. CI's own
// SPBENCH_CACHE_DIR (a fresh directory) wins when set.
export const TEST_CACHE_DIR = process.env.SPBENCH_CACHE_DIR || join(tmpdir(), 'spbench-test-cache');

export function cpuExecutable(): Promise<string> {
  return buildExecutable('cpu', { cacheDir: TEST_CACHE_DIR });
}

/** A = [[1,0,2],[0,0,0],[0,3,0]]: one empty row, values exact in f32. */
export const A3: SmallCsr = { rows: 3, cols: 3, rowPtr: [0, 2, 2, 3], colIdx: [0, 2, 1], values: [1, 2, 3] };
