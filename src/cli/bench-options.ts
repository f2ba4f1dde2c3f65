// Options that spmm and spgemm share (precision, methods, seed, sampling, backend, output) and their
// help text. Values are checked by the operation's request schema (src/bench/request-schema.ts),
// which suites use too; defaults come from its REQUEST_DEFAULTS, so help shows the real ones.
import type { Command } from 'commander';
import { REQUEST_DEFAULTS as D } from '../bench/request-defaults.js';
import { methodList, nonNegativeInt, splitList } from '../bench/options.js';
import { profilePaths, type ProfileTarget } from '../bench/profile.js';
import { UserError } from '../util/errors.js';

export interface CommonBenchOptions {
  precision?: string;
  methods?: string;
  seed?: string;
  warmup?: string;
  samples?: string;
  cache?: string;
  maxNoise?: string;
  minSamples?: string;
  minTime?: string;
  timeout?: string;
  profile?: string;
  metrics?: string;
  repeat?: string;
  kernel?: string[];
  backend?: string;
  device?: string;
  json?: string;
  quiet?: boolean;
}

const dflt = (v: unknown): string => ` (default: ${Array.isArray(v) ? v.join(',') : String(v)})`;

export function addCommonOptions(cmd: Command, d: { seedHelp: string; samplesHelp: string; libs: string; precisionHelp: string }): Command {
  return cmd
    .option('--precision <list>', `${d.precisionHelp}${dflt(D.precision)}`)
    .option('--methods <all|m1,m2>', `methods to run (names as printed in the table)${dflt(D.methods)}`)
    .option('--seed <n>', `${d.seedHelp}${dflt(D.seed)}`)
    .option('--warmup <n>', `untimed runs before sampling: at most this many, and none past the first once 1 s of them has gone by${dflt(D.warmup)}`)
    .option('--samples <n|auto>', `${d.samplesHelp}; auto: sample until the median's relative standard error (sqrt(pi/2)·1.4826·MAD/√n/median) is at most --max-noise${dflt(D.samples)}`)
    .option('--max-noise <percent>', `--samples auto: stop when the median's relative standard error is at most this${dflt(D.maxNoise)}`)
    .option('--min-samples <n>', `--samples auto: at least this many samples${dflt(D.minSamples)}`)
    .option('--min-time <s>', `--samples auto: at least this many seconds of timed samples${dflt(D.minTime)}`)
    .option('--timeout <s>', `--samples auto: stop sampling a method after this many seconds whatever the noise${dflt(D.timeout)}`)
    .option('--cache <hot|cold|both>', `L2 state of each sample: hot (what the previous sample left), cold (the L2 flushed before every sample, outside the timed region; one call a sample) or both (two cases, side by side)${dflt(D.cache)}`)
    .option('--repeat <n>', `run the native executable N times as separate processes on the same inputs; the result keeps every sample and one median per run, which compare needs to tell run-to-run drift from a change (use 3 or more for CI)${dflt(D.repeat)}`)
    .option('--kernel <file.cu>', 'your own kernel (a plugin, docs/plugins.md), built with nvcc and run as family "user" in its own process beside every method, verified and timed the same way; repeat for several', (v: string, prev: string[] = []) => [...prev, v])
    .option('--profile <method>', 'after the first native run, run this method once (no warm-up, one sample, same inputs) under Nsight Compute (ncu); the .ncu-rep report and a per-kernel text summary go beside the --json file (else the working directory), and the result file says where or why not')
    .option('--metrics <a,b,c>', 'Nsight Compute metrics (e.g. dram__bytes_read.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed) of one call of every verified method, per case, summed over its kernels, into the result (metrics); not applicable, with the reason, without ncu or a GPU')
    .option('--backend <auto|cpu|cuda>', `auto uses the GPU when one (with nvcc, ${d.libs}) is usable, else the CPU backend (default: auto)`)
    .option('--device <n>', 'CUDA device to run on (default: 0; the CPU backend ignores it)')
    .option('--json <file>', 'also write the result file (schema spbench-results/1); "-" prints only the JSON to stdout')
    .option('--quiet', 'no progress or log lines');
}

/** The shared options as request fields (unset ones stay unset, so the schema's defaults apply). */
export function commonFields(o: CommonBenchOptions): Record<string, unknown> {
  return { precision: o.precision, methods: o.methods, seed: o.seed, warmup: o.warmup, samples: o.samples, repeat: o.repeat,
    cache: o.cache, maxNoise: o.maxNoise, minSamples: o.minSamples, minTime: o.minTime, timeout: o.timeout, kernel: o.kernel?.length ? o.kernel : undefined };
}

/** --profile METHOD as the request's profile target (beside the --json file). */
export function profileField(o: CommonBenchOptions): { profile?: ProfileTarget } {
  if (o.profile === undefined) return {};
  const m = methodList(o.profile, '--profile');
  if (m === 'all' || m.length !== 1) throw new UserError(`--profile: expected one method name, got '${o.profile}'`);
  return { profile: { method: m[0], ...profilePaths(o.json, m[0]) } };
}

/** --metrics a,b,c as the request's metric names. */
export function metricsField(o: CommonBenchOptions): { metrics?: string[] } {
  if (o.metrics === undefined) return {};
  const names = [...new Set(splitList(o.metrics, '--metrics'))];
  const bad = names.find((n) => !/^[A-Za-z][A-Za-z0-9_.:]*$/.test(n));
  if (bad !== undefined) throw new UserError(`--metrics: '${bad}' is not a metric name (letters, digits, _ . :), e.g. dram__bytes_read.sum`);
  return { metrics: names };
}

/** --device as a request field: absent when not given. */
export function deviceField(o: CommonBenchOptions): { device?: number } {
  return o.device === undefined ? {} : { device: nonNegativeInt(o.device, '--device') };
}

export { dflt as defaultHelp };
