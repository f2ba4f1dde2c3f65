// The one set of request defaults (command line and suites) and the option that names each field
// in messages. Kept apart from the zod schema (./request-schema.ts) so that registering the
// commands, which shows these in --help, stays cheap.
import type { CacheState, SpgemmPrecision, TimingMode } from '../kinds.js';

/** The defaults of every request field, for the CLI and suites alike. */
export const REQUEST_DEFAULTS = {
  precision: ['f32'] as SpgemmPrecision[], // spmm also takes f16 and bf16
  methods: 'all' as const,
  seed: 1,
  warmup: 5, // at most; warm-ups stop after 1 s of them (cuda/common/sampling.hpp run_warmups)
  samples: 'auto' as number | 'auto',
  repeat: 1,
  cache: ['hot'] as CacheState[],
  // --samples auto's limits (cuda/common/sampling.hpp)
  maxNoise: 0.5, // percent: relative standard error of the median
  minSamples: 10,
  minTime: 0.05, // seconds of timed samples
  timeout: 5, // seconds of sampling a method: a method of a second a call gets 5 samples

  // spmm
  batch: [100],
  dim: ['64'],
  nnzRow: ['3'],
  nb: [64],
  mode: ['kernel'] as TimingMode[],
  layout: 'row' as const,
  // spgemm
  breakdown: false,
  explain: false,
  verify: 'auto' as const,
};

/** The option that sets each field: how messages name it. */
export const OPTION_NAME = {
  precision: '--precision', methods: '--methods', seed: '--seed', warmup: '--warmup', samples: '--samples', repeat: '--repeat', kernel: '--kernel',
  cache: '--cache', maxNoise: '--max-noise', minSamples: '--min-samples', minTime: '--min-time', timeout: '--timeout',
  batch: '--batch', dim: '--dim', nnzRow: '--nnz-row', graph: '--graph', nb: '--nb', mode: '--mode', layout: '--layout', matrices: '--matrices',
  inputs: 'spgemm', gen: '--gen', b: '--b', gen_b: '--gen-b', breakdown: '--breakdown', explain: '--explain', verify: '--verify',
} as const;
