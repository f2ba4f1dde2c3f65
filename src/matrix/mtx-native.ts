// The native fast path for large coordinate Matrix Market files: the banner and size line are read
// here with the one grammar (MtxParser), then the native parser (cuda/cpu/mtx_parse.hpp, built by
// g++ like the CPU backend) parses the entries on threads into canonical CSR. Two front ends share
// it: the Node-API addon (cuda/cpu/mtx_addon.cpp, target 'mtx-addon'), which parses inside this
// process straight into the arrays it returns, and where the addon cannot be built or loaded (no
// Node headers, SPBENCH_MTX_ADDON=0) the `spbench-cpu mtx2spb` executable, which writes a .spb
// that is read back. It accepts a strict subset of the grammar; on anything else — and when g++
// is unavailable — this returns undefined and the TypeScript reader does the job, reporting exact
// errors with line numbers.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, rm, stat } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { mtxAddonEnabled, nativeParseEnabled } from '../config.js';
import { MtxParser, preludeEnd, type MtxResult } from './mtx-parser.js';
import type { CsrMatrix, MtxHeader } from './types.js';

const PRELUDE_MAX = 1 << 20;


interface Prelude {
  offset: number;
  header: MtxHeader;
  rows: number;
  cols: number;
  entries: number;
}

/** Banner and size line (validated by MtxParser; its errors throw with the line); undefined when unusual. */
async function readPrelude(path: string): Promise<Prelude | undefined> {
  const fh = await open(path, 'r');
  let head: Buffer;
  let size: number;
  try {
    size = (await fh.stat()).size;
    head = Buffer.alloc(Math.min(PRELUDE_MAX, size));
    await fh.read(head, 0, head.length, 0);
  } finally {
    await fh.close();
  }
  const offset = preludeEnd(head);
  if (offset < 0) return undefined;
  const parser = new MtxParser(path, size);
  parser.consume(head, offset);
  if (!parser.expectingEntries) return undefined;
  const { rows, cols, header } = parser.part();
  if (header.format !== 'coordinate') return undefined;
  return { offset, header, rows, cols, entries: parser.entriesDeclared };
}

function run(exe: string, args: string[], threads?: number): Promise<number> {
  return new Promise((resolve) => {
    const env = threads ? { ...process.env, OMP_NUM_THREADS: String(threads) } : process.env;
    const child = spawn(exe, args, { stdio: ['ignore', 'ignore', 'ignore'], env });
    child.on('error', () => resolve(-1));
    child.on('close', (code) => resolve(code ?? -1));
  });
}

/** What the addon answers: CSR arrays, true once the .spb asked for is written, or why not. */
type AddonAnswer = Pick<CsrMatrix, 'rowPtr' | 'colIdx' | 'values'> | true | string;

/** The addon's one function (cuda/cpu/mtx_addon.cpp); `output` '' = arrays, no file. */
interface MtxAddon {
  parse(path: string, offset: number, rows: number, cols: number, entries: number, field: number, mirror: number, threads: number, output: string): Promise<AddonAnswer>;
}

let addon: Promise<MtxAddon | undefined> | undefined;

/**
 * The parser addon, built or found in the cache and loaded once; undefined where it cannot be (no g++ or Node headers,
 * a failed build or load) or is not wanted ($SPBENCH_MTX_ADDON=0): the executable or the TypeScript reader then.
 */
function mtxAddon(): Promise<MtxAddon | undefined> {
  if (!mtxAddonEnabled()) return Promise.resolve(undefined);
  addon ??= (async () => {
    try {
      const { buildExecutable } = await import('../native/build.js'); // (no GPU probe: a g++ target)
      const module = { exports: {} as Partial<MtxAddon> };
      process.dlopen(module, await buildExecutable('mtx-addon'));
      return typeof module.exports.parse === 'function' ? (module.exports as MtxAddon) : undefined;
    } catch {
      return undefined;
    }
  })();
  return addon;
}

/** Runs the addon on the file: its answer, or undefined without an addon. */
async function addonParse(path: string, prelude: Prelude, threads: number | undefined, output = ''): Promise<AddonAnswer | undefined> {
  const a = await mtxAddon();
  if (!a) return undefined;
  const { header, rows, cols, entries, offset } = prelude;
  const field = header.field === 'pattern' ? 2 : header.field === 'integer' ? 1 : 0;
  const mirror = header.symmetry === 'general' ? 0 : header.symmetry === 'skew-symmetric' ? -1 : 1;
  return a.parse(path, offset, rows, cols, entries, field, mirror, threads ?? availableParallelism(), output);
}

/** spbench-cpu, built or found in the cache; undefined without a compiler or a writable cache (the TypeScript reader then). */
async function cpuExecutable(): Promise<string | undefined> {
  try {
    const { buildExecutable } = await import('../native/build.js'); // (no GPU probe: a g++ target)
    return await buildExecutable('cpu');
  } catch {
    return undefined;
  }
}

function mtx2spbArgs(path: string, output: string, prelude: Prelude): string[] {
  const { header, rows, cols, entries, offset } = prelude;
  const args = ['mtx2spb', '--input', path, '--output', output, '--offset', String(offset), '--rows', String(rows), '--cols', String(cols)];
  args.push('--entries', String(entries), '--field', header.field, '--symmetry', header.symmetry);
  return args;
}

export interface NativeReadOptions {
  /** Path of spbench-cpu, which then parses (not the addon); default: the addon, else spbench-cpu built or found in the cache (ensureExecutable). */
  exe?: string;
  /** Where the .spb goes (kept); default: a temporary file, removed after reading. */
  output?: string;
  /** Threads (default: all cores). */
  threads?: number;
}

/**
 * Runs `spbench-cpu mtx2spb` on `path` into `output`; the prelude, or undefined. mtx2spb writes a temporary sibling and
 * renames it, so a failed run leaves `output` as it was (a user's older file stays).
 */
async function mtxToSpb(path: string, output: string, opts: NativeReadOptions): Promise<Prelude | undefined> {
  if (!opts.exe) void mtxAddon(); // its build check (g++ --version) while the prelude is read
  const prelude = await readPrelude(path);
  if (!prelude) return undefined;
  const done = opts.exe ? undefined : await addonParse(path, prelude, opts.threads, output);
  if (done !== undefined) return done === true ? prelude : undefined;
  const exe = opts.exe ?? (await cpuExecutable());
  if (!exe) return undefined;
  const code = await run(exe, mtx2spbArgs(path, output, prelude), opts.threads);
  return code === 0 ? prelude : undefined;
}

/**
 * Parses a coordinate .mtx natively; undefined when the native path cannot or will not do it
 * (no g++, array format, any unusual line): the caller then parses in TypeScript. The addon parses
 * in this process (`opts.output` is then left to the caller: no storedAt); else mtx2spb writes the
 * .spb to `opts.output` (the parse cache's entry), or else to a temporary file in memory (/dev/shm
 * where it can), which is read back and removed.
 */
export async function readMtxNative(path: string, opts: NativeReadOptions = {}): Promise<MtxResult | undefined> {
  if (!opts.exe) void mtxAddon(); // its build check (g++ --version) while the prelude is read
  const prelude = await readPrelude(path);
  if (!prelude) return undefined;
  const parsed = opts.exe ? undefined : await addonParse(path, prelude, opts.threads);
  if (typeof parsed === 'object') return { header: prelude.header, matrix: { rows: prelude.rows, cols: prelude.cols, ...parsed }, via: 'addon' };
  if (parsed !== undefined) return undefined; // an unusual line (or no memory): mtx2spb would say the same
  const exe = opts.exe ?? (await cpuExecutable());
  if (!exe) return undefined;
  const output = opts.output ?? join(await scratchDir(), `spbench-mtx-${process.pid}-${randomBytes(6).toString('hex')}.spb`);
  const exit = run(exe, mtx2spbArgs(path, output, prelude), opts.threads);
  // While mtx2spb runs this process is idle: it allocates the arrays and writes them once, so that
  // their first-touch page faults (a few hundred MB) are not taken while reading the result. A general
  // matrix has one entry a line; a symmetric one up to two, known only from the result.
  const arrays = preallocate(prelude.rows, prelude.header.symmetry === 'general' ? prelude.entries : -1);
  let matrix: CsrMatrix | undefined;
  try {
    // not validated again: mtx2spb has just written it (canonical CSR, checked as it was built)
    if ((await exit) === 0) matrix = await readOwnSpb(output, prelude, arrays);
  } finally {
    if (!opts.output || !matrix) await rm(output, { force: true }); // (a parse cache entry only when it failed)
  }
  return matrix && { header: prelude.header, matrix, via: 'mtx2spb', ...(opts.output ? { storedAt: opts.output } : {}) };
}

/**
 * The header of a one-matrix .spb that mtx2spb wrote (cuda/common/binfmt.hpp: magic, index bytes at 12, value type at 13
 * — 2 is float64 —, the matrix's rows/cols/nnz at 32/40/48); undefined when it is not one (magic or value type).
 */
function ownSpbHeader(head: Buffer): { indexBytes: number; rows: number; cols: number; nnz: number } | undefined {
  if (head.toString('latin1', 0, 4) !== 'SPBM' || head[13] !== 2) return undefined;
  return { indexBytes: head[12], rows: Number(head.readBigUInt64LE(32)), cols: Number(head.readBigUInt64LE(40)), nnz: Number(head.readBigUInt64LE(48)) };
}

interface Arrays {
  rowPtr: Int32Array;
  colIdx: Int32Array;
  values: Float64Array;
}

function preallocate(rows: number, nnz: number): Arrays | undefined {
  if (rows + 1 > 0x7fffffff || nnz > 0x7fffffff) return undefined;
  const rowPtr = new Int32Array(rows + 1).fill(0);
  if (nnz < 0) return { rowPtr, colIdx: new Int32Array(0), values: new Float64Array(0) };
  return { rowPtr, colIdx: new Int32Array(nnz).fill(0), values: new Float64Array(nnz).fill(0) };
}

/**
 * The one-matrix .spb that mtx2spb wrote (float64 values; int32 indices, else readSpb), read into
 * the preallocated arrays where they fit; undefined when it is not the matrix the prelude announced.
 */
async function readOwnSpb(path: string, prelude: Prelude, pre: Arrays | undefined): Promise<CsrMatrix | undefined> {
  const fh = await open(path, 'r');
  try {
    const head = Buffer.alloc(56);
    await fh.read(head, 0, 56, 0);
    const h = ownSpbHeader(head);
    if (!h || h.rows !== prelude.rows || h.cols !== prelude.cols) return undefined;
    const { rows, cols, nnz } = h;
    if (h.indexBytes !== 4 || !pre) {
      const { readSpb } = await import('./binary.js');
      const { matrices } = await readSpb(path, { validate: false });
      return matrices[0];
    }
    const { rowPtr } = pre;
    let { colIdx, values } = pre;
    if (colIdx.length < nnz) {
      colIdx = new Int32Array(nnz);
      values = new Float64Array(nnz);
    } else if (colIdx.length > nnz) {
      colIdx = colIdx.slice(0, nnz); // duplicates were summed: fewer entries than lines
      values = values.slice(0, nnz);
    }
    let off = 56;
    const readAll = async (view: Uint8Array) => {
      for (let done = 0; done < view.length; ) {
        const { bytesRead } = await fh.read(view, done, Math.min(view.length - done, 1 << 24), off + done);
        if (bytesRead === 0) throw new Error(`${path}: truncated`);
        done += bytesRead;
      }
      off += Math.ceil(view.length / 8) * 8;
    };
    await readAll(new Uint8Array(rowPtr.buffer));
    await readAll(new Uint8Array(colIdx.buffer));
    await readAll(new Uint8Array(values.buffer));
    return { rows, cols, rowPtr, colIdx, values };
  } finally {
    await fh.close();
  }
}

let scratch: Promise<string> | undefined;

/** /dev/shm where it is a writable folder (memory, never written back to a disk), else the temporary folder. */
function scratchDir(): Promise<string> {
  scratch ??= access('/dev/shm', constants.W_OK).then(
    () => '/dev/shm',
    () => tmpdir(),
  );
  return scratch;
}

/**
 * `spbench convert big.mtx big.spb` without the round trip through JavaScript (parse, read back, write again: twice the
 * time of the parse): mtx2spb writes the .spb itself, canonical CSR with float64 values and int32 indices while nnz
 * fits, as writeSpb does. Only files of at least `minBytes` (the native reader's threshold), and only when the index
 * width asked for is the one written; else undefined, and the caller converts in TypeScript (exact errors with lines).
 */
export async function convertMtxNative(path: string, output: string, indexWidth: 4 | 8, opts: NativeReadOptions & { minBytes?: number } = {}): Promise<{ rows: number; cols: number; nnz: number } | undefined> {
  if (!nativeParseEnabled()) return undefined;
  const size = await stat(path).then((s) => (s.isFile() ? s.size : -1), () => -1);
  if (size < (opts.minBytes ?? 16 << 20)) return undefined;
  try {
    await mkdir(dirname(output), { recursive: true });
  } catch {
    return undefined; // the TypeScript writer reports it
  }
  if (!(await mtxToSpb(path, output, opts))) return undefined;
  const head = Buffer.alloc(56);
  const fh = await open(output, 'r');
  try {
    await fh.read(head, 0, 56, 0);
  } finally {
    await fh.close();
  }
  const h = ownSpbHeader(head);
  if (!h || h.indexBytes !== indexWidth) {
    await rm(output, { force: true });
    return undefined;
  }
  return { rows: h.rows, cols: h.cols, nnz: h.nnz };
}
