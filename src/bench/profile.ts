// --profile METHOD: after a request's first native run, the same executable with the same arguments
// (so the same inputs, seed and cache state) runs that one method once — no warm-up, one sample —
// under Nsight Compute (ncu). The report (.ncu-rep) and its per-kernel text summary are written
// beside the result file; the result file's `profile` says where, or why there is none.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import type { ResultFile } from '../results/schema.js';
import type { BenchDeps } from './deps.js';

export type ProfileRecord = NonNullable<ResultFile['profile']>;

/** Where the profile goes: beside --json FILE (FILE's name without .json as the stem), else the working directory. */
export function profilePaths(json: string | undefined, method: string): { dir: string; stem: string } {
  const usable = json !== undefined && json !== '-';
  const dir = usable ? join(json, '..') : '.';
  const base = usable ? basename(json).replace(/\.json$/, '') : 'spbench';
  return { dir, stem: `${base}.profile-${method.replace(/[^A-Za-z0-9_.+-]/g, '_')}` };
}

/**
 * The native arguments of a profiled run: the run's own, then one method, no warm-up, one sample (later
 * options win), and --profile-region: that sample (one call) between cudaProfilerStart/Stop, which is all
 * that `ncu --profile-from-start off` profiles (cuda/common/measure.cuh).
 */
export function profileArgs(args: string[], method: string): string[] {
  return [...args, '--methods', method, '--warmup', '0', '--samples', '1', '--profile-region'];
}

const NCU_RUN = ['--profile-from-start', 'off', '--target-processes', 'all'];

export interface ProfileTarget {
  method: string;
  dir: string;
  stem: string;
}

/**
 * Runs the method once under ncu. Never throws: a missing ncu is not_applicable, a failed profile
 * (e.g. no permission for the GPU's performance counters) an error, both with the reason.
 */
export async function profileMethod(
  deps: Pick<BenchDeps, 'runNative'>, ncu: string | null, exe: string, args: string[], t: ProfileTarget, backend: 'cpu' | 'cuda',
): Promise<ProfileRecord> {
  const base = { method: t.method };
  if (backend !== 'cuda') return { ...base, status: 'not_applicable', reason: 'the CPU backend runs no GPU kernels to profile' };
  if (!ncu) return { ...base, status: 'not_applicable', reason: 'ncu (Nsight Compute) was not found in $CUDA_HOME/bin, /usr/local/cuda/bin or on PATH' };
  const rep = join(t.dir, `${t.stem}.ncu-rep`);
  const log = join(t.dir, `${t.stem}.ncu-log.txt`);
  const summary = join(t.dir, `${t.stem}.txt`);
  try {
    // ncu's own messages go to the log file, so the executable's stdout stays JSON lines
    const lines = await deps.runNative(ncu, ['--log-file', log, '--export', rep, '--force-overwrite', ...NCU_RUN, exe, ...profileArgs(args, t.method)], {});
    const ran = lines.some((l) => l.type === 'result' && l.method === t.method);
    if (!ran) return { ...base, status: 'error', reason: `the profiled run printed no result for ${t.method} (see ${log})` };
    const { stdout } = await promisify(execFile)(ncu, ['--import', rep, '--print-summary', 'per-kernel'], { maxBuffer: 64 << 20 });
    await writeFile(summary, stdout);
    return { ...base, status: 'ok', report: rep, summary, log };
  } catch (err) {
    return { ...base, status: 'error', reason: `ncu failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)} (see ${log})` };
  }
}

export type MetricsRecord = NonNullable<import('../results/schema.js').MethodResult['metrics']>;

/**
 * `ncu --csv --page raw` output: the sum over the profiled kernels (one call of the method) of each
 * requested metric; a metric ncu did not report is left out. Throws where there is no table.
 */
export function parseNcuCsv(text: string, metrics: string[]): { values: Record<string, number>; kernels: number } {
  const lines = text.split('\n').filter((l) => l.startsWith('"'));
  const head = lines.findIndex((l) => l.startsWith('"ID"'));
  if (head < 0) throw new Error('ncu printed no metrics table');
  const cells = (l: string): string[] => (l.match(/"((?:[^"]|"")*)"/g) ?? []).map((c) => c.slice(1, -1).replace(/""/g, '"'));
  const names = cells(lines[head]);
  // the row after the header gives units (it has no ID); kernel rows start with a number
  const rows = lines.slice(head + 1).map(cells).filter((r) => /^\d+$/.test(r[0] ?? ''));
  const values: Record<string, number> = {};
  for (const m of metrics) {
    const i = names.indexOf(m);
    if (i < 0) continue;
    values[m] = rows.reduce((s, r) => s + (Number((r[i] ?? '').replace(/,/g, '')) || 0), 0);
  }
  return { values, kernels: rows.length };
}

/** --metrics: each ok method of a native run once under ncu with those metrics; the record for every method. */
export async function methodMetrics(
  deps: Pick<BenchDeps, 'runNative'>, ncu: string | null, exe: string, args: string[], method: string, metrics: string[], backend: 'cpu' | 'cuda', logDir: string,
): Promise<MetricsRecord> {
  if (backend !== 'cuda') return { status: 'not_applicable', reason: 'the CPU backend runs no GPU kernels (hardware counters need ncu and a GPU)' };
  if (!ncu) return { status: 'not_applicable', reason: 'ncu (Nsight Compute) was not found in $CUDA_HOME/bin, /usr/local/cuda/bin or on PATH' };
  const log = join(logDir, `metrics-${method.replace(/[^A-Za-z0-9_.+-]/g, '_')}-${Date.now()}.csv`);
  try {
    await deps.runNative(ncu, ['--log-file', log, '--csv', '--page', 'raw', '--metrics', metrics.join(','), ...NCU_RUN, exe, ...profileArgs(args, method)], {});
    const { values, kernels } = parseNcuCsv(await readFile(log, 'utf8'), metrics);
    const missing = metrics.filter((m) => !(m in values));
    return { status: 'ok', values, kernels, ...(missing.length ? { reason: `not reported by ncu: ${missing.join(', ')}` } : {}) };
  } catch (err) {
    return { status: 'error', reason: `ncu failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}` };
  }
}
