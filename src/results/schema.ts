// The result file (`--json`, `spbench run`): versioned schema read by report and compare.
import { z } from 'zod';
import { Clocks, EnvLine, GpuInfo, ResultStatus, Sampling, Verification } from '../native/protocol.js';
import { CACHE_STATES, METHOD_FAMILIES, OPS } from '../kinds.js';

export const RESULT_SCHEMA = 'spbench-results/1';

export const MethodResult = z.object({
  method: z.string(),
  family: z.enum(METHOD_FAMILIES),
  status: ResultStatus,
  reason: z.string().optional(),
  timed_region: z.string(),
  samples_ms: z.array(z.number().nonnegative()), // every sample; with --repeat N, the runs one after another
  // --repeat N ≥ 2: the median of each separate process run, in run order. Optional (absent with one
  // run and in older files): additive, so the schema stays spbench-results/1.
  run_medians_ms: z.array(z.number().nonnegative()).optional(),
  // Derived from samples_ms by src/bench/figures.ts (src/stats.ts); null when there is no speed figure (not ok).
  median_ms: z.number().nonnegative().nullable(),
  min_ms: z.number().nonnegative().nullable(),
  max_ms: z.number().nonnegative().nullable(),
  q1_ms: z.number().nonnegative().nullable(),
  q3_ms: z.number().nonnegative().nullable(),
  stdrel: z.number().nonnegative().nullable(), // relative standard deviation of the samples
  gflops: z.number().nonnegative().nullable(),
  bandwidth_gbs: z.number().nonnegative().nullable(),
  flops: z.number().nonnegative(),
  bytes_moved: z.number().nonnegative(),
  peak_mem_bytes: z.number().nonnegative(),
  verify: Verification,
  breakdown_ms: z.record(z.string(), z.number().nonnegative()).optional(),
  info: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  // Additive (schema stays /1): the L2 state of the samples (--cache), how sampling stopped, and the
  // GPU clocks at the method's start and end with the throttled flag that compare reads.
  cache: z.enum(CACHE_STATES).optional(),
  sampling: Sampling.optional(),
  clocks: Clocks.optional(),
  // --metrics: hardware counters of one call of the method (ncu, summed over its kernels), or why not
  metrics: z
    .object({ status: z.enum(['ok', 'not_applicable', 'error']), reason: z.string().optional(), values: z.record(z.string(), z.number()).optional(), kernels: z.number().int().nonnegative().optional() })
    .optional(),
});
export type MethodResult = z.infer<typeof MethodResult>;

export const CaseResult = z.object({
  id: z.string(), // stable key used by compare to pair cases, e.g. "spmm/batch=100/dim=64/nnz=3/nb=64/f32/graph"
  op: z.enum(OPS),
  label: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  input: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])), // matrix description: source, dims, nnz, ...
  results: z.array(MethodResult),
});
export type CaseResult = z.infer<typeof CaseResult>;

export const ResultFile = z.object({
  schema: z.literal(RESULT_SCHEMA),
  created: z.string(), // ISO time
  spbench: z.object({ version: z.string(), commit: z.string().nullable() }),
  command: z.array(z.string()),
  host: z.object({ hostname: z.string(), platform: z.string(), cpus: z.string(), node: z.string() }),
  backend: z.enum(['cpu', 'cuda']),
  device: GpuInfo.nullable(), // the GPU the run used; null on the CPU backend
  env: EnvLine.nullable(),
  cases: z.array(CaseResult),
  // `run --shard K/N`: which part of which suite this file holds, and the names of all the suite's
  // cases, so that `spbench merge` can tell what is missing. Optional and additive (schema stays /1).
  shard: z
    .object({ suite: z.string(), index: z.number().int().positive(), count: z.number().int().positive(), suite_cases: z.array(z.string()), cases: z.array(z.string()) })
    .optional(),
  // --profile METHOD: the method run once under Nsight Compute; report and text summary beside the result file (src/bench/profile.ts).
  profile: z
    .object({ method: z.string(), status: z.enum(['ok', 'not_applicable', 'error']), reason: z.string().optional(), report: z.string().optional(), summary: z.string().optional(), log: z.string().optional() })
    .optional(),
});
export type ResultFile = z.infer<typeof ResultFile>;
