// `run --devices all|0,2,…`: which devices get a worker, and each worker's share of CPU threads.
import { availableParallelism } from 'node:os';
import { UserError } from '../util/errors.js';

/** The device list of `--devices`; `all` asks `countGpus` (null: no GPU, so one worker on device 0). */
export async function parseDevices(text: string, countGpus: () => Promise<number | null>): Promise<number[]> {
  const t = text.trim();
  if (t === 'all') {
    const n = await countGpus();
    return n && n > 0 ? Array.from({ length: n }, (_, i) => i) : [0];
  }
  const items = t.split(',').map((s) => s.trim());
  const out: number[] = [];
  for (const s of items) {
    if (!/^\d+$/.test(s)) throw new UserError(`--devices: expected "all" or device numbers like 0,2 (got "${text}")`);
    const d = Number(s);
    if (out.includes(d)) throw new UserError(`--devices: device ${d} is listed twice ("${text}"): two workers on one GPU would time each other`);
    out.push(d);
  }
  return out;
}

/**
 * Threads each worker's CPU-side work (reference and verification; OpenMP in the CPU backend) may
 * use: the machine's (or $OMP_NUM_THREADS') threads divided evenly, at least one.
 */
export function threadShare(workers: number, given: string | undefined, cpus = availableParallelism()): number {
  const total = given && /^\d+$/.test(given) && Number(given) > 0 ? Number(given) : cpus;
  return Math.max(1, Math.floor(total / Math.max(1, workers)));
}
