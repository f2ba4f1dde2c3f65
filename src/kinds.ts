// The closed sets of names every layer shares (native protocol, result files, requests, reports),
// each as one `as const` table with its type.
export const OPS = ['spmm', 'spgemm'] as const;
export type Op = (typeof OPS)[number];

/** Who wrote a method: our kernels, the paper's, the libraries we compare with, the CPU reference. */
export const METHOD_FAMILIES = ['ours', 'paper', 'peer', 'reference', 'user'] as const; // user: a --kernel plugin

/** Value precisions: f16 and bf16 (16-bit storage, f32 accumulation) are SpMM only. */
export const PRECISIONS = ['f32', 'f64', 'f16', 'bf16'] as const;
export type Precision = (typeof PRECISIONS)[number];
export const SPGEMM_PRECISIONS = ['f32', 'f64'] as const;
export type SpgemmPrecision = (typeof SPGEMM_PRECISIONS)[number];

/** Bytes of one value of a precision. */
export function valueBytes(p: Precision): number {
  return p === 'f64' ? 8 : p === 'f32' ? 4 : 2;
}

/**
 * The verification tolerance of a precision (normalized error, cuda/common/value_traits.hpp, which says
 * why: f16 and bf16 are about twice their output rounding, 2^-11 and 2^-8).
 */
export function defaultTolerance(p: Precision): number {
  return { f32: 1e-4, f64: 1e-12, f16: 1e-3, bf16: 8e-3 }[p];
}

/**
 * The value type of the .spb file a native run reads: f16 and bf16 runs read f32 values (exact for
 * every generated value and the closest float for a file's) and round them to 16 bits themselves.
 */
export function spbValueType(p: Precision): 'f32' | 'f64' {
  return p === 'f64' ? 'f64' : 'f32';
}

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
