// Matrix Market reader: small files serially (chunks of whole lines, line-chunks.ts, through the
// parser of mtx-parser.ts), large coordinate files on worker threads (mtx-parallel.ts). Every problem
// is a UserError `file:line: ...`.
import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { nativeParseEnabled } from '../config.js';
import { readLineChunks } from './line-chunks.js';
import { MtxParser, type MtxResult } from './mtx-parser.js';

export type { MtxResult };

export interface ReadMtxOptions {
  /** Bytes read per chunk (tests use tiny chunks so lines straddle boundaries). */
  chunkSize?: number;
  /** Worker threads for large coordinate files (default: CPU count, at most 4; 1 = serial). */
  threads?: number;
  /** Files below this size are read serially (default 16 MB). */
  parallelMinBytes?: number;
  /** Coordinate files from this size go to the native parser when it is available (default 16 MB; mtx-native.ts). */
  nativeMinBytes?: number;
  /** Where the native parser leaves its .spb (the parse cache passes its entry); default: a temporary file. */
  nativeOutput?: string;
}

/** Reads a Matrix Market file into canonical CSR; every problem is a UserError `file:line: ...`. */
export async function readMtx(path: string, opts: ReadMtxOptions = {}): Promise<MtxResult> {
  const threads = opts.threads ?? Math.min(4, availableParallelism());
  const size = opts.chunkSize === undefined ? await stat(path).then((s) => s.size, () => -1) : -1;
  if (size >= (opts.nativeMinBytes ?? 16 << 20)) {
    const { readMtxNative } = await import('./mtx-native.js');
    if (nativeParseEnabled()) {
      const result = await readMtxNative(path, { output: opts.nativeOutput, threads: opts.threads });
      if (result) return result;
    }
  }
  if (threads > 1 && opts.chunkSize === undefined) {
    if (size >= (opts.parallelMinBytes ?? 16 << 20)) {
      const { parallelAvailable, readMtxParallel } = await import('./mtx-parallel.js');
      if (parallelAvailable()) {
        const result = await readMtxParallel(path, threads);
        if (result) return result;
      }
    }
  }
  return readMtxSerial(path, opts);
}

async function readMtxSerial(path: string, opts: ReadMtxOptions): Promise<MtxResult> {
  let parser: MtxParser | undefined;
  await readLineChunks(path, (buf, end) => parser!.consume(buf, end), {
    chunkSize: opts.chunkSize,
    onSize: (size) => (parser = new MtxParser(path, size)),
  });
  return parser!.finish();
}

