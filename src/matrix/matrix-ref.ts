// Matrix arguments that name compressed files and archive members (`cant.tar.gz:cant_b`); kept
// apart from archive.ts so that checking arguments does not load the tar reader.
import { existsSync } from 'node:fs';
import { basename } from 'node:path';

export type PackedKind = 'mtx-gz' | 'tar-gz' | 'tar';

/** A matrix argument: a file and, for archives, the member asked for (`file.tar.gz:member`). */
export interface MatrixRef {
  file: string;
  member?: string;
}

const ARCHIVE_EXT = /\.(tar\.gz|tgz|tar)$/i;

export function packedKind(file: string): PackedKind | undefined {
  const f = file.toLowerCase();
  if (f.endsWith('.mtx.gz')) return 'mtx-gz';
  if (f.endsWith('.tar.gz') || f.endsWith('.tgz')) return 'tar-gz';
  if (f.endsWith('.tar')) return 'tar';
  return undefined;
}

/** Splits `archive.tar.gz:member`; anything else is a plain path. */
export function parseMatrixRef(arg: string): MatrixRef {
  const m = /^(.*\.(?:tar\.gz|tgz|tar)):([^:]+)$/i.exec(arg);
  if (m && !existsSync(arg)) return { file: m[1], member: m[2] };
  return { file: arg };
}

/** True when the file an argument names exists (the member is checked when it is read). */
export function matrixRefExists(arg: string): boolean {
  return existsSync(parseMatrixRef(arg).file);
}

/** The archive's own name: `dir/cant.tar.gz` → `cant`. */
export function archiveStem(file: string): string {
  return basename(file).replace(ARCHIVE_EXT, '');
}

