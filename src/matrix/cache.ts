// Parse cache: a .mtx file is parsed once and kept as .spb (float64 values) under
// $SPBENCH_CACHE_DIR, $XDG_CACHE_HOME/spbench or ~/.cache/spbench, in matrices/.
//
// Key = absolute path + size + mtime + SHA-256 of the first and last MiB. Why not a hash of the
// whole file: hashing a multi-GB file costs about as much as loading the cached copy, and size +
// mtime already change on every ordinary edit; the sampled content catches edits that keep size
// and mtime (copies with preserved times, tools that restore mtime) as long as they touch the
// header, the size line or the tail — which any change of dimensions or entry count does.
import { createHash } from 'node:crypto';
import { mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { readSpb, writeSpb } from './binary.js';
import { readMtx, type ReadMtxOptions } from './mtx-read.js';
import type { CsrMatrix } from './types.js';
import { cacheDir } from '../config.js';

const SAMPLE = 1 << 20;

export function matrixCacheDir(): string {
  return join(cacheDir(), 'matrices');
}

/** Cache file name: a per-path prefix (to find stale entries) and the content key. */
export async function cacheEntryName(path: string, member?: string): Promise<{ prefix: string; name: string }> {
  const abs = resolve(path);
  const st = await stat(abs);
  const h = createHash('sha256');
  h.update(`spbench-mtx-cache/1\0${abs}\0${st.size}\0${st.mtimeMs}\0`);
  // a compressed file or an archive: the key also names the member read (empty: the main one)
  if (member !== undefined) h.update(`member\0${member}\0`);
  const fh = await open(abs, 'r');
  try {
    const head = Buffer.alloc(Math.min(SAMPLE, st.size));
    await fh.read(head, 0, head.length, 0);
    h.update(head);
    if (st.size > SAMPLE) {
      const tailLen = Math.min(SAMPLE, st.size - SAMPLE);
      const tail = Buffer.alloc(tailLen);
      await fh.read(tail, 0, tailLen, st.size - tailLen);
      h.update(tail);
    }
  } finally {
    await fh.close();
  }
  const prefix = createHash('sha256').update(member === undefined ? abs : `${abs}\0${member}`).digest('hex').slice(0, 16);
  return { prefix, name: `${prefix}-${h.digest('hex').slice(0, 32)}.spb` };
}

export interface CachedReadResult {
  matrix: CsrMatrix;
  fromCache: boolean;
}

/** Reads a .mtx through the cache; cache trouble (unwritable, corrupt) falls back to parsing. */
export async function readMtxCached(path: string, opts: ReadMtxOptions & { log?: (s: string) => void } = {}): Promise<CachedReadResult> {
  // the native parser may write the cache entry itself (storedAt): then it is not written twice
  return readCached(path, undefined, async (target) => {
    const r = await readMtx(path, { ...opts, nativeOutput: target });
    return r.storedAt !== undefined && r.storedAt === target ? { matrix: r.matrix, stored: true } : r.matrix;
  }, opts);
}

/**
 * Reads through the cache with any parser: `member` is undefined for a plain .mtx, '' for the main
 * matrix of a compressed file or archive, else the member asked for.
 */
export async function readCached(
  path: string,
  member: string | undefined,
  parse: (target?: string) => Promise<CsrMatrix | { matrix: CsrMatrix; stored: true }>,
  opts: { log?: (s: string) => void } = {},
): Promise<CachedReadResult> {
  const dir = matrixCacheDir();
  let entry: { prefix: string; name: string } | undefined;
  try {
    entry = await cacheEntryName(path, member);
    const cached = join(dir, entry.name);
    const { matrices } = await readSpb(cached);
    if (matrices.length === 1) return { matrix: matrices[0], fromCache: true };
  } catch {
    // missing or unreadable cache entry (or missing input, which readMtx reports properly)
  }
  if (entry) await mkdir(dir, { recursive: true }).catch(() => undefined);
  const parsed = await parse(entry ? join(dir, entry.name) : undefined);
  const matrix = 'stored' in parsed ? parsed.matrix : parsed;
  if (entry && 'stored' in parsed) await removeStale(dir, entry).catch(() => undefined);
  else if (entry) {
    try {
      await mkdir(dir, { recursive: true });
      const nnz = matrix.rowPtr[matrix.rows];
      await writeSpb(join(dir, entry.name), [matrix], { valueType: 'f64', indexWidth: nnz > 0x7fffffff ? 8 : 4 });
      await removeStale(dir, entry);
    } catch (err) {
      opts.log?.(`spbench: could not write the matrix cache in ${dir}: ${(err as Error).message}`);
    }
  }
  return { matrix, fromCache: false };
}

/** Drops earlier cache entries of the same path (the file changed since). */
async function removeStale(dir: string, entry: { prefix: string; name: string }): Promise<void> {
  for (const f of await readdir(dir)) {
    if (f.startsWith(`${entry.prefix}-`) && f.endsWith('.spb') && f !== entry.name) await rm(join(dir, f), { force: true });
  }
}
