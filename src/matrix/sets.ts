// Standard matrix sets: manifests in the package's top-level matrices/ folder (NAME.json), whose
// matrices `spbench fetch` downloads from the SuiteSparse Matrix Collection into the cache as
// <cache>/suitesparse/GROUP/NAME.tar.gz. A suite names a set as "set:NAME" and runs what is there.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { UserError } from '../util/errors.js';
import { cacheDir as cacheRoot } from '../config.js';

const Figure = z.number().int().nonnegative().nullable();
export const SetMatrix = z.object({
  id: z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/),
  group: z.string().min(1),
  name: z.string().min(1),
  rows: Figure,
  cols: Figure,
  nnz: Figure,
  class: z.string().min(1),
  /** bytes of the .tar.gz and its SHA-256, where known (fetch checks them) */
  bytes: z.number().int().positive().optional(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
});
export type SetMatrix = z.output<typeof SetMatrix>;
export const MatrixSet = z.object({ name: z.string().min(1), description: z.string(), matrices: z.array(SetMatrix).min(1) }).passthrough();
export type MatrixSet = z.output<typeof MatrixSet>;

/** The package's matrices/ folder (dist/src/matrix → ../../../matrices). */
export function setsDir(): string {
  return fileURLToPath(new URL('../../../matrices/', import.meta.url));
}

export function setNames(dir = setsDir()): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort() : [];
}

export function loadSet(name: string, dir = setsDir()): MatrixSet {
  const file = join(dir, `${name}.json`);
  if (!/^[A-Za-z0-9_.-]+$/.test(name) || !existsSync(file)) {
    throw new UserError(`unknown matrix set "${name}" (known sets: ${setNames(dir).join(', ') || 'none'})`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UserError(`${file}: not valid JSON (${(err as Error).message})`);
  }
  const r = MatrixSet.safeParse(raw);
  if (!r.success) throw new UserError(`${file}: ${r.error.issues.map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`).join('; ')}`);
  return r.data;
}

/** Where fetched SuiteSparse archives live. */
export function suitesparseDir(): string {
  return join(cacheRoot(), 'suitesparse');
}

export function cachedArchive(group: string, name: string, dir = suitesparseDir()): string {
  return join(dir, group, `${name}.tar.gz`);
}

/**
 * A suite entry "set:NAME" becomes the archives of the set that are in the cache; what is missing
 * is reported through `log`. Other entries pass through. None of a set fetched is an error.
 */
export function expandSetRef(entry: string, log: (s: string) => void): string[] {
  if (!entry.startsWith('set:')) return [entry];
  const set = loadSet(entry.slice(4));
  const present = set.matrices.filter((m) => existsSync(cachedArchive(m.group, m.name)));
  const missing = set.matrices.filter((m) => !present.includes(m));
  if (present.length === 0) {
    throw new UserError(`${entry}: none of its ${set.matrices.length} matrices is in the cache (${suitesparseDir()}); fetch them with: spbench fetch --set ${set.name}`);
  }
  if (missing.length) log(`${entry}: running ${present.length} of ${set.matrices.length} matrices; not fetched: ${missing.map((m) => m.id).join(', ')} (spbench fetch --set ${set.name})`);
  return present.map((m) => cachedArchive(m.group, m.name));
}
