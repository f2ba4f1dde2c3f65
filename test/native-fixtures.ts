// Shared by the native tests: a tiny .spb writer (docs/binary-format.md) for hand-made matrices,
// the CPU backend built once per test run, and helpers for throw-away files.
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureExecutable } from '../src/native/build.js';

export interface SmallCsr {
  rows: number;
  cols: number;
  rowPtr: number[];
  colIdx: number[];
  values: number[];
}

/** Encodes matrices as .spb version 1 with int32 indices; f32 or f64 values. */
export function spbBytes(mats: SmallCsr[], valueType: 'f32' | 'f64' = 'f64'): Buffer {
  const parts: Buffer[] = [Buffer.alloc(32)];
  const padded = (b: Buffer) => Buffer.concat([b, Buffer.alloc((8 - (b.length % 8)) % 8)]);
  for (const m of mats) {
    const h = Buffer.alloc(24);
    h.writeBigUInt64LE(BigInt(m.rows), 0);
    h.writeBigUInt64LE(BigInt(m.cols), 8);
    h.writeBigUInt64LE(BigInt(m.colIdx.length), 16);
    parts.push(h, padded(Buffer.from(Int32Array.from(m.rowPtr).buffer)), padded(Buffer.from(Int32Array.from(m.colIdx).buffer)));
    parts.push(padded(Buffer.from((valueType === 'f32' ? Float32Array.from(m.values) : Float64Array.from(m.values)).buffer)));
  }
  const out = Buffer.concat(parts);
  out.write('SPBM', 0, 'latin1');
  out.writeUInt32LE(1, 4);
  out.writeUInt32LE(mats.length, 8);
  out.writeUInt8(4, 12);
  out.writeUInt8(valueType === 'f32' ? 1 : 2, 13);
  out.writeBigUInt64LE(BigInt(out.length), 24);
  return out;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `spbench-${prefix}-`));
}

export function writeSpb(dir: string, name: string, mats: SmallCsr[], valueType: 'f32' | 'f64' = 'f64'): string {
  const p = join(dir, name);
  writeFileSync(p, spbBytes(mats, valueType));
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
// build lock makes the test files that build it concurrently share one build.
export const TEST_CACHE_DIR = join(tmpdir(), 'spbench-test-cache');

export function cpuExecutable(): Promise<string> {
  return ensureExecutable('cpu', { cacheDir: TEST_CACHE_DIR });
}

/** A = [[1,0,2],[0,0,0],[0,3,0]]: one empty row, values exact in f32. */
export const A3: SmallCsr = { rows: 3, cols: 3, rowPtr: [0, 2, 2, 3], colIdx: [0, 2, 1], values: [1, 2, 3] };
