// The one schema for what native executables print (docs/native-protocol.md).
// Every stdout line of a child is parsed and validated here; nothing else reads child output.
import { z } from 'zod';
import { CACHE_STATES, METHOD_FAMILIES, OPS, SAMPLING_RULES } from '../kinds.js';

export const PROTOCOL_VERSION = 1;

export const GpuInfo = z.object({
  index: z.number().int().nonnegative(),
  name: z.string(),
  cc: z.string(), // compute capability, e.g. "9.0"
  sms: z.number().int().positive(),
  smem_per_block: z.number().int().nonnegative(),
  smem_per_block_optin: z.number().int().nonnegative(),
  smem_per_sm: z.number().int().nonnegative(),
  max_threads_per_sm: z.number().int().positive(),
  max_blocks_per_sm: z.number().int().positive(),
  global_mem_bytes: z.number().nonnegative(),
  l2_bytes: z.number().nonnegative(),
  clock_khz: z.number().nonnegative().optional(),
  mem_bus_bits: z.number().nonnegative().optional(),
});
export type GpuInfo = z.infer<typeof GpuInfo>;

export const EnvLine = z.object({
  type: z.literal('env'),
  protocol: z.literal(PROTOCOL_VERSION),
  backend: z.enum(['cpu', 'cuda']),
  executable: z.string(),
  devices: z.array(GpuInfo).default([]),
  cuda: z
    .object({
      runtime: z.string(),
      driver: z.string(),
      cusparse: z.string().optional(),
      cublas: z.string().optional(),
    })
    .optional(),
  threads: z.number().int().positive().optional(), // CPU backend: OpenMP threads
  compiler: z.string().optional(),
});
export type EnvLine = z.infer<typeof EnvLine>;

export const ProgressLine = z.object({
  type: z.literal('progress'),
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  label: z.string(),
});
export type ProgressLine = z.infer<typeof ProgressLine>;

export const Verification = z.object({
  checked: z.boolean(), // false only where no reference could be computed (reason says why)
  passed: z.boolean(),
  max_rel_err: z.number().nonnegative().nullable(), // null when not checked
  tol: z.number().positive(),
  reference: z.string(), // e.g. "cpu-f64", "cusparse"
  detail: z.string().optional(), // first mismatch, pattern difference, unwritten output...
});
export type Verification = z.infer<typeof Verification>;

/** How a method's samples were taken and what stopped them (cuda/common/sampling.hpp). */
export const Sampling = z.object({
  samples: z.string(), // "auto" or the fixed count asked for
  rule: z.enum(SAMPLING_RULES), // samples (the fixed count) | noise | timeout | max-samples
  n: z.number().int().nonnegative(),
  noise_pct: z.number().nonnegative().nullable(), // relative standard error of the median at the end, percent
  noise_estimator: z.string(), // "sqrt(pi/2)*1.4826*MAD/sqrt(n)/median"
  wall_s: z.number().nonnegative(),
  max_noise_pct: z.number().positive().optional(),
  min_samples: z.number().int().positive().optional(),
  min_time_s: z.number().nonnegative().optional(),
  timeout_s: z.number().positive().optional(),
});
export type Sampling = z.infer<typeof Sampling>;

export const ClockReading = z.object({
  sm_mhz: z.number().nonnegative(),
  mem_mhz: z.number().nonnegative(),
  temp_c: z.number(),
  power_w: z.number().nonnegative(),
  reasons: z.number().nonnegative(), // NVML clocks-event reasons bit mask
  reason_names: z.string(), // e.g. "sw_power_cap,sw_thermal"
});

/** NVML at a method's start and end (cuda/common/nvml_clocks.cuh); available false with the reason where NVML is absent. */
export const Clocks = z.object({
  available: z.boolean(),
  reason: z.string().optional(),
  start: ClockReading.optional(),
  end: ClockReading.optional(),
  max_sm_mhz: z.number().nonnegative().optional(),
  threshold: z.number().positive().optional(), // throttled below threshold × max SM clock
  throttled: z.boolean().optional(),
  throttle_why: z.string().optional(),
});
export type Clocks = z.infer<typeof Clocks>;

export const ResultStatus = z.enum(['ok', 'failed', 'not_applicable', 'error']);
export type ResultStatus = z.infer<typeof ResultStatus>;

export const ResultLine = z.object({
  type: z.literal('result'),
  op: z.enum(OPS),
  method: z.string().min(1),
  family: z.enum(METHOD_FAMILIES), // user: a --kernel plugin (docs/plugins.md)
  // Case parameters the native side ran with (nb, precision, mode, layout, batch, ...).
  params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  status: ResultStatus,
  reason: z.string().optional(),
  timed_region: z.string(), // what is inside the events: "kernel", "e2e", "graph", "whole-spgemm", "cpu-wall"
  samples_ms: z.array(z.number().nonnegative()),
  flops: z.number().nonnegative(), // useful flops of the case (GFLOPS = flops / median time)
  bytes_moved: z.number().nonnegative(), // minimum bytes of inputs + output (effective bandwidth)
  peak_mem_bytes: z.number().nonnegative(), // peak device (or host, CPU backend) bytes this method allocated, output included
  verify: Verification,
  breakdown_ms: z.record(z.string(), z.number().nonnegative()).optional(),
  info: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  cache: z.enum(CACHE_STATES).optional(), // L2 hot or flushed before every sample (--cache)
  sampling: Sampling.optional(), // present where samples were taken
  clocks: Clocks.optional(), // GPU drivers, where samples were taken
});
export type ResultLine = z.infer<typeof ResultLine>;

export const ExplainLine = z.object({
  type: z.literal('explain'),
  op: z.enum(OPS),
  title: z.string(),
  columns: z.array(z.string()),
  rows: z.array(z.array(z.union([z.string(), z.number()]))),
});
export type ExplainLine = z.infer<typeof ExplainLine>;

export const LogLine = z.object({
  type: z.literal('log'),
  level: z.enum(['info', 'warn']),
  message: z.string(),
});

export const DoneLine = z.object({ type: z.literal('done') });

export const NativeLine = z.discriminatedUnion('type', [EnvLine, ProgressLine, ResultLine, ExplainLine, LogLine, DoneLine]);
export type NativeLine = z.infer<typeof NativeLine>;

/** Parses one stdout line of a child. Throws an Error that quotes the line and the schema problem. */
export function parseNativeLine(line: string, lineNo: number): NativeLine {
  let obj: unknown;
  try {
    obj = JSON.parse(line);
  } catch {
    throw new Error(`native output line ${lineNo} is not JSON: ${truncate(line, 200)}`);
  }
  const r = NativeLine.safeParse(obj);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = issue && issue.path.length ? issue.path.join('.') : '(line)';
    throw new Error(`native output line ${lineNo} does not match protocol v${PROTOCOL_VERSION}: ${where}: ${issue?.message ?? 'invalid'}: ${truncate(line, 200)}`);
  }
  return r.data;
}

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}
