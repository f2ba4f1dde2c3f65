// The native fast path for large coordinate Matrix Market files: the banner and size line are read
// here with the one grammar (MtxParser), then `spbench-cpu mtx2spb` (cuda/cpu/mtx_parse.hpp,
// built by g++ like the CPU backend) parses the entries with OpenMP threads and writes canonical
// CSR as .spb. It accepts a strict subset of the grammar; on anything else — and when g++ or the
// executable is unavailable — this returns undefined and the TypeScript reader does the job,
// reporting exact errors with line numbers.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { nativeParseEnabled } from '../config.js';
import { readSpb } from './binary.js';
import { MtxParser, type MtxResult } from './mtx-parser.js';
import { preludeEnd } from './mtx-parallel.js';
import type { MtxHeader } from './types.js';

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

export interface NativeReadOptions {
  /** Path of spbench-cpu; default: build or find it in the cache (ensureExecutable). */
  exe?: string;
  /** Where the .spb goes (kept); default: a temporary file, removed after reading. */
  output?: string;
  /** Threads for OpenMP (default: its own choice, all cores). */
  threads?: number;
}

/**
 * Runs `spbench-cpu mtx2spb` on `path` into `output`; the prelude, or undefined. mtx2spb writes a temporary sibling and
 * renames it, so a failed run leaves `output` as it was (a user's older file stays; `removeOnFailure` clears our own).
 */
async function mtxToSpb(path: string, output: string, opts: NativeReadOptions, removeOnFailure: boolean): Promise<Prelude | undefined> {
  const prelude = await readPrelude(path);
  if (!prelude) return undefined;
  let exe = opts.exe;
  if (!exe) {
    try {
      const { ensureExecutable } = await import('../native/executables.js');
      exe = await ensureExecutable('cpu');
    } catch {
      return undefined; // no compiler or no writable cache: the TypeScript reader
    }
  }
  const { header, rows, cols, entries, offset } = prelude;
  const args = ['mtx2spb', '--input', path, '--output', output, '--offset', String(offset), '--rows', String(rows), '--cols', String(cols)];
  args.push('--entries', String(entries), '--field', header.field, '--symmetry', header.symmetry);
  const code = await run(exe, args, opts.threads);
  if (code !== 0) {
    if (removeOnFailure) await rm(output, { force: true });
    return undefined;
  }
  return prelude;
}

/**
 * Parses a coordinate .mtx natively; undefined when the native path cannot or will not do it
 * (no g++, array format, any unusual line): the caller then parses in TypeScript.
 */
export async function readMtxNative(path: string, opts: NativeReadOptions = {}): Promise<MtxResult | undefined> {
  const output = opts.output ?? join(tmpdir(), `spbench-mtx-${process.pid}-${randomBytes(6).toString('hex')}.spb`);
  const prelude = await mtxToSpb(path, output, opts, true);
  if (!prelude) return undefined;
  try {
    const { matrices } = await readSpb(output);
    return { header: prelude.header, matrix: matrices[0], ...(opts.output ? { storedAt: opts.output } : {}) };
  } finally {
    if (!opts.output) await rm(output, { force: true });
  }
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
  if (!(await mtxToSpb(path, output, opts, false))) return undefined;
  // the header (cuda/common/binfmt.hpp): magic, index width at 12, value type at 13 (2 = float64), rows/cols/nnz at 32
  const head = Buffer.alloc(56);
  const fh = await open(output, 'r');
  try {
    await fh.read(head, 0, 56, 0);
  } finally {
    await fh.close();
  }
  if (head.toString('latin1', 0, 4) !== 'SPBM' || head[12] !== indexWidth || head[13] !== 2) {
    await rm(output, { force: true });
    return undefined;
  }
  return { rows: Number(head.readBigUInt64LE(32)), cols: Number(head.readBigUInt64LE(40)), nnz: Number(head.readBigUInt64LE(48)) };
}
