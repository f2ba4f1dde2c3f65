// Reader/writer of the .spb binary matrix format (docs/binary-format.md; C++ twin:
// cuda/common/binfmt.hpp). Arrays are read straight into typed arrays, written in slices, and the
// file appears atomically. Little-endian only, like the format.
import { open } from 'node:fs/promises';
import { endianness } from 'node:os';
import { UserError } from '../util/errors.js';
import { writeStreamAtomic } from '../util/atomic-write.js';
import type { CsrMatrix, IndexWidth, ValueType } from './types.js';

const MAGIC = 'SPBM';
const VERSION = 1;
const HEADER_BYTES = 32;
const INT32_MAX = 0x7fffffff;
const SLICE = 1 << 20; // elements converted per write

export interface SpbContents {
  matrices: CsrMatrix[];
  valueType: ValueType;
  indexWidth: IndexWidth;
}

export interface SpbWriteOptions {
  valueType: ValueType;
  indexWidth?: IndexWidth;
}

const pad8 = (n: number) => (n + 7) & ~7;
const pad8n = (n: number) => Math.ceil(n / 8) * 8; // for sizes beyond 2^31

if (endianness() !== 'LE') throw new Error('spbench .spb I/O needs a little-endian host');

/** Reads every matrix of an .spb file; `validate` (default on) checks the CSR invariants. */
export async function readSpb(path: string, opts: { validate?: boolean } = {}): Promise<SpbContents> {
  const validate = opts.validate ?? true;
  const bad = (msg: string): never => {
    throw new UserError(`${path}: ${msg}`);
  };
  let fh;
  try {
    fh = await open(path, 'r');
  } catch (err) {
    throw new UserError(`${path}: cannot open: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    const size = (await fh.stat()).size;
    let off = 0;
    const readInto = async (view: Uint8Array, what: string) => {
      if (off + view.byteLength > size) bad(`${what} past end of file (truncated?)`);
      let done = 0;
      while (done < view.byteLength) {
        const { bytesRead } = await fh.read(view, done, view.byteLength - done, off + done);
        if (bytesRead === 0) bad(`${what}: unexpected end of file`);
        done += bytesRead;
      }
      off += view.byteLength;
    };
    if (size < HEADER_BYTES) bad('too small to be an .spb file (no 32-byte header)');
    const head = Buffer.alloc(HEADER_BYTES);
    await readInto(head, 'header');
    if (head.toString('latin1', 0, 4) !== MAGIC) bad('bad magic (not an .spb file)');
    const version = head.readUInt32LE(4);
    if (version !== VERSION) bad(`unsupported .spb version ${version} (this spbench reads version ${VERSION})`);
    const count = head.readUInt32LE(8);
    const indexWidth = head[12];
    const vt = head[13];
    if (indexWidth !== 4 && indexWidth !== 8) bad(`index_bytes must be 4 or 8, found ${indexWidth}`);
    if (vt !== 1 && vt !== 2) bad(`value_type must be 1 (f32) or 2 (f64), found ${vt}`);
    const fileBytes = Number(head.readBigUInt64LE(24));
    if (fileBytes !== size) bad(`file_bytes in header (${fileBytes}) differs from file size (${size}): truncated or corrupt`);
    if (count < 1) bad('holds no matrices (count is 0)');
    const matrices: CsrMatrix[] = [];
    for (let m = 0; m < count; m++) {
      const where = `matrix ${m}`;
      const mh = Buffer.alloc(24);
      await readInto(mh, `${where}: header`);
      const rows = Number(mh.readBigUInt64LE(0));
      const cols = Number(mh.readBigUInt64LE(8));
      const nnz = Number(mh.readBigUInt64LE(16));
      if (rows > INT32_MAX || cols > INT32_MAX) bad(`${where}: dimensions ${rows} x ${cols} exceed 2^31-1`);
      const arrays = pad8n((rows + 1) * indexWidth) + pad8n(nnz * indexWidth) + pad8n(nnz * (vt === 1 ? 4 : 8));
      if (off + arrays > size) bad(`${where}: arrays past end of file (truncated?)`);
      const rowPtr = await readIndex(rows + 1, nnz > INT32_MAX, `${where}: row_ptr`);
      const colIdx = (await readIndex(nnz, false, `${where}: col_idx`)) as Int32Array;
      let values: Float64Array;
      if (vt === 2) {
        values = new Float64Array(nnz);
        await readInto(new Uint8Array(values.buffer), `${where}: values`);
      } else {
        const f = new Float32Array(nnz);
        await readInto(new Uint8Array(f.buffer), `${where}: values`);
        values = Float64Array.from(f);
      }
      off = pad8n(off);
      const mat: CsrMatrix = { rows, cols, rowPtr, colIdx, values };
      if (validate) validateCsr(mat, nnz, (msg) => bad(`${where}: ${msg}`));
      matrices.push(mat);
    }
    if (off !== size) bad('trailing bytes after the last matrix');
    return { matrices, valueType: vt === 1 ? 'f32' : 'f64', indexWidth: indexWidth as IndexWidth };

    // Reads `n` indices; int64 files are narrowed (row_ptr to Float64Array when nnz needs it).
    async function readIndex(n: number, wide: boolean, what: string): Promise<Int32Array | Float64Array> {
      let out: Int32Array | Float64Array;
      if (indexWidth === 4) {
        out = new Int32Array(n);
        await readInto(new Uint8Array(out.buffer), what);
      } else {
        const raw = new BigInt64Array(n);
        await readInto(new Uint8Array(raw.buffer), what);
        out = wide ? new Float64Array(n) : new Int32Array(n);
        for (let i = 0; i < n; i++) {
          const v = raw[i];
          if (v < 0n || v > BigInt(wide ? Number.MAX_SAFE_INTEGER : INT32_MAX)) bad(`${what}: value ${v} at position ${i} out of range`);
          out[i] = Number(v);
        }
      }
      off = pad8n(off);
      return out;
    }
  } finally {
    await fh.close();
  }
}

/** Checks the canonical-CSR invariants; `bad` receives a sentence naming the row. */
export function validateCsr(m: CsrMatrix, nnz: number, bad: (msg: string) => never): void {
  const { rows, cols, rowPtr, colIdx } = m;
  if (rowPtr[0] !== 0 || rowPtr[rows] !== nnz) bad(`row_ptr must start at 0 and end at nnz (${nnz}), found ${rowPtr[0]} .. ${rowPtr[rows]}`);
  for (let r = 0; r < rows; r++) {
    const a = rowPtr[r], b = rowPtr[r + 1];
    if (a > b) bad(`row_ptr decreases at row ${r}`);
    for (let k = a; k < b; k++) {
      const c = colIdx[k];
      if (c < 0 || c >= cols) bad(`column index ${c} out of range 0..${cols - 1} in row ${r}`);
      if (k > a && colIdx[k - 1] >= c) bad(`columns not strictly increasing in row ${r}`);
    }
  }
}

/** Bytes of the whole file for these matrices (the header's file_bytes). */
export function spbFileBytes(mats: CsrMatrix[], indexWidth: IndexWidth, valueType: ValueType): number {
  const vb = valueType === 'f32' ? 4 : 8;
  let total = HEADER_BYTES;
  for (const m of mats) {
    const nnz = m.rowPtr[m.rows];
    total += 24 + pad8n((m.rows + 1) * indexWidth) + pad8n(nnz * indexWidth) + pad8n(nnz * vb);
  }
  return total;
}

/** Writes matrices (canonical CSR) atomically as an .spb file. */
export async function writeSpb(path: string, mats: CsrMatrix[], opts: SpbWriteOptions): Promise<void> {
  const indexWidth = opts.indexWidth ?? 4;
  const valueType = opts.valueType;
  if (mats.length === 0) throw new UserError(`${path}: cannot write an .spb file with no matrices`);
  if (indexWidth !== 4 && indexWidth !== 8) throw new UserError(`${path}: index width must be 4 or 8 bytes`);
  mats.forEach((m, i) => {
    if (indexWidth === 4 && m.rowPtr[m.rows] > INT32_MAX) {
      throw new UserError(`${path}: matrix ${i} has ${m.rowPtr[m.rows]} nonzeros, too many for 32-bit indices (use 64-bit indices)`);
    }
  });
  const head = Buffer.alloc(HEADER_BYTES);
  head.write(MAGIC, 0, 'latin1');
  head.writeUInt32LE(VERSION, 4);
  head.writeUInt32LE(mats.length, 8);
  head[12] = indexWidth;
  head[13] = valueType === 'f32' ? 1 : 2;
  head.writeBigUInt64LE(BigInt(spbFileBytes(mats, indexWidth, valueType)), 24);
  await writeStreamAtomic(path, async (write) => {
    await write(head);
    for (const m of mats) {
      const nnz = m.rowPtr[m.rows];
      const mh = Buffer.alloc(24);
      mh.writeBigUInt64LE(BigInt(m.rows), 0);
      mh.writeBigUInt64LE(BigInt(m.cols), 8);
      mh.writeBigUInt64LE(BigInt(nnz), 16);
      await write(mh);
      await writeArray(write, m.rowPtr, m.rows + 1, indexWidth === 4 ? Int32Array : BigInt64Array);
      await writeArray(write, m.colIdx, nnz, indexWidth === 4 ? Int32Array : BigInt64Array);
      await writeArray(write, m.values, nnz, valueType === 'f32' ? Float32Array : Float64Array);
    }
  });
}

type OutArray = typeof Int32Array | typeof BigInt64Array | typeof Float32Array | typeof Float64Array;

/** Writes `n` elements converted to `Out` in slices, then zero padding to 8 bytes. */
async function writeArray(write: (c: Uint8Array) => Promise<void>, src: ArrayLike<number>, n: number, Out: OutArray): Promise<void> {
  for (let start = 0; start < n; start += SLICE) {
    const end = Math.min(n, start + SLICE);
    let out: Int32Array | BigInt64Array | Float32Array | Float64Array;
    if (src instanceof Out && Out !== BigInt64Array) {
      out = (src as Int32Array | Float64Array).subarray(start, end); // already the right type: no copy
    } else if (Out === BigInt64Array) {
      out = new BigInt64Array(end - start);
      for (let i = start; i < end; i++) out[i - start] = BigInt(src[i]);
    } else {
      out = new (Out as typeof Int32Array | typeof Float32Array | typeof Float64Array)(end - start);
      for (let i = start; i < end; i++) out[i - start] = src[i];
    }
    await write(new Uint8Array(out.buffer, out.byteOffset, out.byteLength));
  }
  const bytes = n * Out.BYTES_PER_ELEMENT;
  if (bytes % 8) await write(new Uint8Array(pad8(bytes % 8) - (bytes % 8)));
}
