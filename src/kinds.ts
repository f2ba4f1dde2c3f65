// The closed sets of names every layer shares (native protocol, result files, requests, reports),
// each as one `as const` table with its type.
export const OPS = ['spmm', 'spgemm'] as const;
export type Op = (typeof OPS)[number];

/** Who wrote a method: our kernels, the paper's, the libraries we compare with, the CPU reference. */
export const METHOD_FAMILIES = ['ours', 'paper', 'peer', 'reference', 'user'] as const; // user: a --kernel plugin

export const PRECISIONS = ['f32', 'f64'] as const;
export type Precision = (typeof PRECISIONS)[number];

export const TIMING_MODES = ['kernel', 'e2e', 'graph'] as const;
export type TimingMode = (typeof TIMING_MODES)[number];

/** L2 state at the start of each sample: hot (whatever the previous sample left) or cold (flushed before it). */
export const CACHE_STATES = ['hot', 'cold'] as const;
export type CacheState = (typeof CACHE_STATES)[number];

/** What stopped the sampling of a method (cuda/common/sampling.hpp). */
export const SAMPLING_RULES = ['samples', 'noise', 'timeout', 'max-samples'] as const;

export const LAYOUTS = ['row', 'col'] as const;
export type Layout = (typeof LAYOUTS)[number];

/** Backends a run can ask for (auto picks one of the others). */
export const BACKENDS = ['auto', 'cpu', 'cuda'] as const;
export type BackendChoice = (typeof BACKENDS)[number];
export type Backend = Exclude<BackendChoice, 'auto'>;
