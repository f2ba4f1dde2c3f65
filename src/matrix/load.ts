// Loading matrices by file name: .mtx through the parse cache, .spb directly (f32/f64 values held
// as float64), .csr/.coo text dumps; a directory of .mtx/.spb files (sorted by name) is a batch.
import { readdir, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { UserError } from '../util/errors.js';
import { readArchiveMtx, readMtxGz } from './archive.js';
import { packedKind, parseMatrixRef } from './matrix-ref.js';
import { readSpb } from './binary.js';
import { readCached, readMtxCached } from './cache.js';
import { readDump } from './dump.js';
import { readMtx } from './mtx-read.js';
import type { CsrMatrix } from './types.js';

export type MatrixFileKind = 'mtx' | 'spb' | 'csr' | 'coo';

export function kindOfPath(path: string): MatrixFileKind | undefined {
  const ext = extname(path).toLowerCase().slice(1);
  if (ext === 'mtx' || ext === 'spb' || ext === 'csr' || ext === 'coo') return ext;
  if (ext === 'bin') return 'spb';
  return undefined;
}

export interface LoadOptions {
  /** Use the .mtx parse cache (default true). */
  cache?: boolean;
  log?: (s: string) => void;
}

/** Every matrix a file holds (an .spb may hold a batch). */
export async function loadMatrices(path: string, opts: LoadOptions = {}): Promise<CsrMatrix[]> {
  const ref = parseMatrixRef(path);
  const packed = packedKind(ref.file);
  if (packed) {
    // .mtx.gz, .tar.gz / .tgz / .tar (archive.ts), through the parse cache keyed on the file's bytes
    const parse = async () => (packed === 'mtx-gz' ? await readMtxGz(ref.file) : await readArchiveMtx(ref)).matrix;
    if (opts.cache === false) return [await parse()];
    return [(await readCached(ref.file, ref.member ?? '', parse, { log: opts.log })).matrix];
  }
  const kind = kindOfPath(path);
  if (kind === 'mtx') {
    if (opts.cache === false) return [(await readMtx(path)).matrix];
    return [(await readMtxCached(path, { log: opts.log })).matrix];
  }
  if (kind === 'spb') return (await readSpb(path)).matrices;
  if (kind === 'csr' || kind === 'coo') return [await readDump(path, kind)];
  throw new UserError(`${path}: unknown matrix file type (expected .mtx, .mtx.gz, .tar.gz, .spb, .csr or .coo)`);
}

/** One matrix; an .spb batch of several is an error here. */
export async function loadMatrix(path: string, opts: LoadOptions = {}): Promise<CsrMatrix> {
  const mats = await loadMatrices(path, opts);
  if (mats.length !== 1) throw new UserError(`${path}: holds a batch of ${mats.length} matrices where one matrix is expected`);
  return mats[0];
}

/** A batch: a directory of .mtx/.spb files (sorted by name) or one file (an .spb may hold several). */
export async function loadBatch(pathOrDir: string, opts: LoadOptions = {}): Promise<{ matrices: CsrMatrix[]; names: string[] }> {
  let st;
  try {
    st = await stat(parseMatrixRef(pathOrDir).file);
  } catch {
    throw new UserError(`${pathOrDir}: no such file or directory`);
  }
  const files = st.isDirectory()
    ? (await readdir(pathOrDir))
        .filter((f) => ['mtx', 'spb'].includes(kindOfPath(f) ?? '') || packedKind(f) !== undefined)
        .sort()
        .map((f) => join(pathOrDir, f))
    : [pathOrDir];
  if (files.length === 0) throw new UserError(`${pathOrDir}: directory holds no .mtx, .mtx.gz, .tar.gz or .spb files`);
  const matrices: CsrMatrix[] = [];
  const names: string[] = [];
  for (const f of files) {
    const mats = await loadMatrices(f, opts);
    const base = basename(f);
    mats.forEach((m, i) => {
      matrices.push(m);
      names.push(mats.length > 1 ? `${base}#${i}` : base);
    });
  }
  return { matrices, names };
}
