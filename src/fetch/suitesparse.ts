// `spbench fetch`: SuiteSparse Matrix Collection archives (MIRROR/MM/GROUP/NAME.tar.gz) into the
// cache (<cache>/suitesparse/GROUP/NAME.tar.gz). A download goes to NAME.tar.gz.part, resumes it
// with a Range request (or restarts when the server ignores the range), is checked — size against
// Content-Length and the manifest, SHA-256 where the manifest has one, and the archive itself is
// read through (gzip, tar, a .mtx member) — and only then renamed into place. Cached archives are
// used without any network access.
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { mirrorFromEnv } from '../config.js';
import { EnvironmentError, UserError } from '../util/errors.js';
import { listArchive } from '../matrix/archive.js';
import { cachedArchive, loadSet, setNames, type SetMatrix } from '../matrix/sets.js';
import { nearest } from './nearest.js';

export const DEFAULT_MIRROR = 'https://suitesparse-collection-website.herokuapp.com';

export interface Wanted {
  group: string;
  name: string;
  bytes?: number;
  sha256?: string;
}

export interface FetchOptions {
  mirror?: string;
  /** progress and notes (one line each) */
  log?: (s: string) => void;
  /** attempts per archive (a truncated or failed transfer is resumed) */
  attempts?: number;
  /** where archives go; default <cache>/suitesparse */
  dir?: string;
}

export interface FetchOutcome {
  id: string;
  path: string;
  status: 'cached' | 'downloaded';
  bytes: number;
}

export function archiveUrl(mirror: string, w: Wanted): string {
  return `${mirror.replace(/\/+$/, '')}/MM/${encodeURIComponent(w.group)}/${encodeURIComponent(w.name)}.tar.gz`;
}

/** Every matrix of every shipped set (for names, groups, sizes and checksums). */
export function knownMatrices(): SetMatrix[] {
  const seen = new Map<string, SetMatrix>();
  for (const s of setNames()) for (const m of loadSet(s).matrices) if (!seen.has(m.id)) seen.set(m.id, m);
  return [...seen.values()];
}

/**
 * GROUP/NAME, or a bare NAME that one known set names, as what to fetch. A bare name that no set
 * knows is an error listing the nearest known names.
 */
export function resolveWanted(arg: string, known = knownMatrices()): Wanted {
  const ids = known.map((m) => m.id);
  const slash = arg.split('/');
  if (slash.length === 2 && slash[0] && slash[1]) {
    const m = known.find((k) => k.id.toLowerCase() === arg.toLowerCase());
    return m ? { group: m.group, name: m.name, bytes: m.bytes, sha256: m.sha256 } : { group: slash[0], name: slash[1] };
  }
  if (slash.length === 1 && arg) {
    const byName = known.filter((k) => k.name.toLowerCase() === arg.toLowerCase());
    if (byName.length === 1) return { group: byName[0].group, name: byName[0].name, bytes: byName[0].bytes, sha256: byName[0].sha256 };
  }
  throw new UserError(`unknown matrix "${arg}": give GROUP/NAME as the SuiteSparse collection names it${hint(arg, ids)}`);
}

function hint(arg: string, ids: string[]): string {
  const near = nearest(arg, ids, 5);
  return near.length ? `; nearest known names: ${near.join(', ')}` : '';
}

function unreachable(mirror: string, err: unknown): EnvironmentError {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const why = cause?.code ?? cause?.message ?? (err as Error).message;
  return new EnvironmentError(
    `cannot reach ${mirror} (${why}): the network or the mirror is unreachable. Archives already in the cache work offline; ` +
      'point --mirror URL or SPBENCH_MIRROR at a reachable copy of the collection.',
  );
}

async function sha256Of(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

/** Size, checksum and archive checks of a complete file; returns the problem or undefined. */
async function problemWith(path: string, w: Wanted): Promise<string | undefined> {
  const size = (await stat(path)).size;
  if (w.bytes !== undefined && size !== w.bytes) return `${size} bytes where the manifest says ${w.bytes}`;
  if (w.sha256 && (await sha256Of(path)) !== w.sha256) return 'SHA-256 differs from the manifest';
  try {
    const { main } = await listArchive(path, 'tar-gz');
    if (!main) return 'no matrix member named like the archive';
  } catch (err) {
    return (err as Error).message;
  }
  return undefined;
}

/** One transfer into `part` (appending from its current size when the server honours Range). */
async function transfer(url: string, part: string, mirror: string, w: Wanted, log: (s: string) => void): Promise<{ complete: boolean; why?: string }> {
  const have = existsSync(part) ? (await stat(part)).size : 0;
  let res: Response;
  try {
    res = await fetch(url, { headers: have > 0 ? { Range: `bytes=${have}-` } : {}, redirect: 'follow' });
  } catch (err) {
    throw unreachable(mirror, err);
  }
  if (res.status === 404) {
    await res.body?.cancel();
    throw new UserError(`${w.group}/${w.name}: not found at ${url} (HTTP 404)${hint(`${w.group}/${w.name}`, knownMatrices().map((m) => m.id))}`);
  }
  if (res.status === 416 && have > 0) {
    await res.body?.cancel();
    return { complete: true }; // the part already holds everything; the checks decide
  }
  if (res.status !== 200 && res.status !== 206) {
    await res.body?.cancel();
    throw new EnvironmentError(`${url}: HTTP ${res.status} ${res.statusText}`);
  }
  const resumed = res.status === 206 && have > 0;
  const length = Number(res.headers.get('content-length') ?? NaN);
  const total = Number.isFinite(length) ? (resumed ? have : 0) + length : w.bytes;
  if (have > 0) log(resumed ? `${w.group}/${w.name}: resuming at ${have} bytes` : `${w.group}/${w.name}: the server ignored the range; restarting`);
  const fh = await open(part, resumed ? 'a' : 'w');
  let got = resumed ? have : 0;
  let lastReport = 0;
  let reported = -1;
  const progress = (final = false) => {
    const now = Date.now();
    if ((!final && now - lastReport < 500) || got === reported) return;
    lastReport = now;
    reported = got;
    const pct = total ? ` (${((100 * got) / total).toFixed(0)} %)` : '';
    log(`${w.group}/${w.name}: ${mb(got)}${total ? ` of ${mb(total)}` : ''}${pct}`);
  };
  try {
    if (!res.body) throw new Error('empty response');
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      await fh.write(chunk);
      got += chunk.length;
      progress();
    }
  } catch (err) {
    progress(true);
    return { complete: false, why: `transfer broke off after ${got} bytes (${(err as Error).message})` };
  } finally {
    await fh.close();
  }
  progress(true);
  if (total !== undefined && got < total) return { complete: false, why: `got ${got} of ${total} bytes` };
  return { complete: true };
}

const mb = (n: number) => `${(n / 1e6).toFixed(n < 1e7 ? 2 : 1)} MB`;

/** Fetches one archive into the cache (or finds it there). */
export async function fetchOne(w: Wanted, opts: FetchOptions = {}): Promise<FetchOutcome> {
  const id = `${w.group}/${w.name}`;
  const log = opts.log ?? (() => undefined);
  const dest = cachedArchive(w.group, w.name, opts.dir);
  if (existsSync(dest)) {
    const size = (await stat(dest)).size;
    if (w.bytes === undefined || size === w.bytes) return { id, path: dest, status: 'cached', bytes: size };
    log(`${id}: the cached copy has ${size} bytes where the manifest says ${w.bytes}; fetching again`);
    await rm(dest, { force: true });
  }
  const mirror = opts.mirror ?? mirrorFromEnv() ?? DEFAULT_MIRROR;
  const url = archiveUrl(mirror, w);
  const part = `${dest}.part`;
  await mkdir(dirname(dest), { recursive: true });
  const attempts = Math.max(1, opts.attempts ?? 3);
  let last = '';
  for (let i = 1; i <= attempts; i++) {
    const t = await transfer(url, part, mirror, w, log);
    if (!t.complete) {
      last = t.why ?? 'incomplete';
      log(`${id}: ${last}; ${i < attempts ? 'retrying' : 'giving up'}`);
      continue;
    }
    const problem = await problemWith(part, w);
    if (!problem) {
      await rename(part, dest);
      return { id, path: dest, status: 'downloaded', bytes: (await stat(dest)).size };
    }
    last = `the download is not a good archive: ${problem}`;
    log(`${id}: ${last}; ${i < attempts ? 'downloading it again' : 'giving up'}`);
    await rm(part, { force: true }); // a complete but bad file: start over, never resume it
  }
  throw new EnvironmentError(`${id}: download from ${url} failed after ${attempts} attempts: ${last}${existsSync(part) ? ` (the partial file ${part} is kept; fetch again to resume)` : ""}`);
}
