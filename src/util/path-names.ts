// Readable names for input files: each path is known by its resolved (absolute) path, and shown by
// the shortest suffix of its path segments that no other distinct path in the same list shares
// ("m.mtx" alone, "a/m.mtx" and "b/m.mtx" when two folders hold an m.mtx).
import { resolve, sep } from 'node:path';

/** The resolved path, without a trailing separator (a directory named "graphs/" is "graphs"). */
export function resolvedPath(path: string): string {
  const abs = resolve(path);
  return abs.length > 1 && abs.endsWith(sep) ? abs.slice(0, -1) : abs;
}

/**
 * One name per path, in order: the shortest segment suffix (joined with "/") that tells this
 * resolved path from every other distinct resolved path in the list. The same path given twice
 * gets the same name (callers treat that as a duplicate case).
 */
export function distinctNames(paths: readonly string[]): string[] {
  const segs = paths.map((p) => resolvedPath(p).split(/[\\/]+/).filter(Boolean));
  const full = segs.map((s) => s.join('/'));
  const suffix = (s: string[], n: number): string => s.slice(Math.max(0, s.length - n)).join('/');
  return segs.map((s, i) => {
    for (let n = 1; n < s.length; n++) {
      const name = suffix(s, n);
      if (!segs.some((o, j) => full[j] !== full[i] && suffix(o, n) === name)) return name;
    }
    return full[i];
  });
}

/** Throws `makeError(id)` for the first id that appears twice. */
export function assertUniqueIds(ids: readonly string[], makeError: (id: string) => Error): void {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) throw makeError(id);
    seen.add(id);
  }
}
