// What the spmm / spgemm commands and suites ask the core to run. The CLI and `spbench run` both
// build these requests; src/bench/spmm-run.ts and spgemm-run.ts carry them out.
import type { CaseResult } from '../results/schema.js';
import type { ProgressEvent } from '../progress/event.js';
import type { ExplainLine } from '../native/protocol.js';
import { REQUEST_DEFAULTS } from './request-defaults.js';
import type { ProfileTarget } from './profile.js';
import type { BackendChoice, CacheState, Layout, Precision, SpgemmPrecision, TimingMode } from '../kinds.js';
import type { GraphKind } from '../matrix/generate/graph.js';


export interface SpmmRequest {
  batch: number[]; // batch sizes to sweep
  dim: string[]; // each "64" or a mixed range "32:256" (drawn per matrix)
  nnzRow: string[]; // each "3" or "1:5"; empty with graph
  graph?: GraphKind; // --graph: each matrix a small graph of this kind (n vertices from dim) instead of nnzRow random columns a row
  nb: number[]; // n_B values, one native run sweeps them all
  precision: Precision[];
  mode: TimingMode[];
  layout: Layout;
  methods: string[] | 'all';
  matrices?: string[]; // .mtx/.spb files or directories that form one batch, instead of generated ones
  seed: number;
  warmup: number;
  samples: Samples;
  cache?: CacheState[]; // --cache: hot, cold or both (each a case of its own); default hot
  sampling?: SamplingLimits; // --samples auto's limits; default REQUEST_DEFAULTS'
  repeat?: number; // separate native process runs on the same inputs (default 1), see src/bench/repeat.ts
  kernels?: string[]; // --kernel: user plugins (.cu), run as family "user" beside the built-in methods (docs/plugins.md)
  backend: BackendChoice;
  profile?: ProfileTarget; // --profile METHOD: that method once under ncu after the first native run (src/bench/profile.ts)
  metrics?: string[]; // --metrics: ncu metrics of one call of every ok method, per case (src/bench/profile.ts)
  device?: number; // CUDA device of the native runs (--device; default 0); the CPU backend ignores it
  explain?: boolean; // print the planner's rule and its choice for `auto` (CUDA backend)
}

export interface SpgemmRequest {
  inputs: string[]; // matrix files (A; C = A·A unless b is set)
  gen: string[]; // generator specs, e.g. "rmat:scale=18,ef=4"
  b?: string; // second operand file for A·B
  genB?: string; // second operand generated from this spec (A·B with a generated A), instead of b
  precision: SpgemmPrecision[];
  methods: string[] | 'all';
  seed: number;
  warmup: number;
  samples: Samples;
  cache?: CacheState[];
  sampling?: SamplingLimits;
  breakdown: boolean;
  explain: boolean;
  verify: VerifyMode;
  repeat?: number; // separate native process runs on the same inputs (default 1)
  kernels?: string[]; // --kernel: user plugins (.cu), docs/plugins.md
  backend: BackendChoice;
  profile?: ProfileTarget; // --profile METHOD: that method once under ncu after the first native run (src/bench/profile.ts)
  metrics?: string[]; // --metrics: ncu metrics of one call of every ok method, per case (src/bench/profile.ts)
  device?: number; // CUDA device of the native runs (--device; default 0); the CPU backend ignores it
  threads?: number; // host threads of the native reference (run --devices: each worker's share); default: the native side's
}

/** A fixed number of samples per method, or 'auto': sample until the noise is low enough (cuda/common/sampling.hpp). */
export type Samples = number | 'auto';

/** --samples auto's rules: stop when the median's relative standard error is ≤ maxNoise %, with ≥ minSamples samples and ≥ minTime s of them; timeout s of sampling stop it anyway. */
export interface SamplingLimits {
  maxNoise: number;
  minSamples: number;
  minTime: number;
  timeout: number;
}

/** The native arguments of a request's sampling (every driver parses them with cuda/common/sampling.hpp), for one cache state. */
export function samplingArgs(r: { samples: Samples; sampling?: SamplingLimits }, cache: CacheState): string[] {
  const d = REQUEST_DEFAULTS;
  const s = r.sampling ?? { maxNoise: d.maxNoise, minSamples: d.minSamples, minTime: d.minTime, timeout: d.timeout };
  return ['--samples', String(r.samples), ...(r.samples === 'auto' ? ['--max-noise', String(s.maxNoise), '--min-samples', String(s.minSamples), '--min-time', String(s.minTime), '--timeout', String(s.timeout)] : []), '--cache', cache];
}

/**
 * How results are checked against the CPU float64 reference: every row ('full'), `rows:N` (N rows: the longest by
 * products and the rest drawn from the seed; for products whose full reference takes too long), 'auto' (full up to
 * 2^28 products, else 4096 rows; cuda/common/spgemm_check.hpp) or not at all ('none'). References are cached by the
 * operands' content (and the rows drawn), so a second run or --repeat reads them.
 */
export type VerifyMode = 'auto' | 'full' | 'none' | `rows:${number}`;

/** Receives events while a request runs; renderers (ink, plain lines, JSON) implement it. */
export interface RunSink {
  progress(p: ProgressEvent): void;
  caseDone(c: CaseResult): void;
  log(message: string): void;
}

/** A RunSink that may also receive derived-parameter tables (`--explain`). */
export interface BenchSink extends RunSink {
  explain?(e: ExplainLine): void;
}
