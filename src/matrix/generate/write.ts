// Where and how `spbench gen` writes its matrices: one .spb, one .mtx, or a directory of .mtx.
// Every file is written atomically; a directory is filled under a temporary name and renamed into
// place, so a failure never leaves a partial batch behind.
import { statSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { tempSibling } from '../../util/atomic-write.js';
import { UserError } from '../../util/errors.js';
import { writeSpb } from '../binary.js';
import { writeMtx } from '../mtx-write.js';
import type { CsrMatrix, ValueType } from '../types.js';

export type OutputFormat = 'mtx' | 'spb';

export type OutputPlan = { kind: 'spb'; path: string } | { kind: 'mtx'; path: string } | { kind: 'mtx-dir'; dir: string };

/**
 * Decides the output from -o, --format and the matrix count: a name ending in .spb/.mtx says its
 * format, a name ending in "/" (or an existing directory) is a directory of .mtx files.
 */
export function planOutput(path: string, format: OutputFormat | undefined, count: number, isDir: boolean): OutputPlan {
  const dirLike = isDir || /[\\/]$/.test(path);
  const ext = /\.(mtx|spb)$/i.exec(path)?.[1]?.toLowerCase() as OutputFormat | undefined;
  const fmt = format ?? (dirLike ? 'mtx' : ext);
  if (!fmt) throw new UserError(`-o ${path}: cannot tell the output format; name it *.spb or *.mtx, end it with "/" for a directory of .mtx files, or pass --format`);
  if (fmt === 'spb') {
    if (dirLike) throw new UserError(`-o ${path}: a .spb output is one file (the whole batch), not a directory`);
    return { kind: 'spb', path };
  }
  // a batch in .mtx needs a directory; only a name that says ".mtx" is taken as one file
  if (dirLike || (count > 1 && ext !== 'mtx')) return { kind: 'mtx-dir', dir: path.replace(/[\\/]+$/, '') || '/' };
  if (count > 1) throw new UserError(`-o ${path}: a .mtx file holds one matrix; write the ${count} matrices to a directory (-o dir/) or to a .spb file`);
  return { kind: 'mtx', path };
}

/** File names of a batch in a directory, zero-padded so that name order is batch order. */
export function batchFileNames(count: number): string[] {
  const width = String(Math.max(count - 1, 0)).length;
  return Array.from({ length: count }, (_, i) => `m${String(i).padStart(width, '0')}.mtx`);
}

/** Whether -o names an existing directory (a name through a file is not one). */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Checks, before any work, that the folder the output goes into exists. */
export function checkOutputParent(plan: OutputPlan): void {
  const target = plan.kind === 'mtx-dir' ? plan.dir : plan.path;
  const parent = dirname(target);
  if (!isDirectory(parent)) throw new UserError(`-o ${target}: ${parent} is not an existing folder`);
  if (plan.kind === 'mtx-dir' && !isDirectory(target) && statSync(target, { throwIfNoEntry: false })) {
    throw new UserError(`-o ${target}/: ${target} exists and is not a directory`);
  }
}

const WRITERS = 32;

export async function writeGenerated(plan: OutputPlan, mats: CsrMatrix[], opts: { valueType: ValueType; comments?: string[] }): Promise<void> {
  if (plan.kind === 'spb') return writeSpb(plan.path, mats, { valueType: opts.valueType });
  if (plan.kind === 'mtx') return writeMtx(plan.path, mats[0], { comments: opts.comments });
  const existing = await readdir(plan.dir).catch(() => null);
  if (existing && existing.length > 0) throw new UserError(`-o ${plan.dir}/: the directory is not empty; choose a new or empty one`);
  const tmp = tempSibling(plan.dir);
  await mkdir(tmp);
  try {
    const names = batchFileNames(mats.length);
    // Several files in flight at once: each writeMtx waits on its own fsync, which dominates small files.
    // On a failure the others stop taking files, and all settle before the folder is removed.
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < mats.length; i = next++) await writeMtx(join(tmp, names[i]), mats[i], { comments: opts.comments });
    };
    const settled = await Promise.allSettled(Array.from({ length: Math.min(WRITERS, mats.length) }, () => worker().catch((e) => {
      next = mats.length;
      throw e;
    })));
    const failed = settled.find((r) => r.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    // rename(2) replaces an empty directory, so an existing empty target is fine
    await rename(tmp, plan.dir);
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    throw err;
  }
}
