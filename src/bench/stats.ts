// The one place where timing samples become figures: median, quartiles, spread, GFLOPS, bandwidth.
// Native executables report raw samples only (docs/native-protocol.md), so every figure in tables,
// JSON and comparisons is computed here the same way.
import type { ResultLine } from '../native/protocol.js';
import type { MethodResult } from '../results/schema.js';

export interface SampleSummary {
  median: number;
  q1: number;
  q3: number;
  min: number;
  max: number;
  /** relative standard deviation (sample std dev / mean); 0 for a single sample or a zero mean */
  stdrel: number;
}

/** Quantile by linear interpolation between closest ranks (numpy's default), on sorted input. */
function quantileSorted(sorted: number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

export function summarize(samples: readonly number[]): SampleSummary {
  if (samples.length === 0) throw new Error('summarize: no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const n = sorted.length;
  const mean = sorted.reduce((s, x) => s + x, 0) / n;
  const variance = n > 1 ? sorted.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1) : 0;
  return {
    median: quantileSorted(sorted, 0.5),
    q1: quantileSorted(sorted, 0.25),
    q3: quantileSorted(sorted, 0.75),
    min: sorted[0],
    max: sorted[n - 1],
    stdrel: mean > 0 ? Math.sqrt(variance) / mean : 0,
  };
}

/** flops per millisecond → GFLOPS (1 ms = 1e-3 s, 1 GFLOP = 1e9). */
export function gflops(flops: number, ms: number): number {
  return flops / ms / 1e6;
}

/** bytes per millisecond → GB/s (decimal gigabytes). */
export function gbPerS(bytes: number, ms: number): number {
  return bytes / ms / 1e6;
}

/**
 * Turns a validated native result line into the result-file record. Only status "ok" with samples
 * gets figures: a failed, erroring or not-applicable method never carries a speed.
 */
export function toMethodResult(line: ResultLine & { run_medians_ms?: number[] }): MethodResult {
  const timed = line.status === 'ok' && line.samples_ms.length > 0;
  const s = timed ? summarize(line.samples_ms) : null;
  const positive = s !== null && s.median > 0;
  return {
    method: line.method,
    family: line.family,
    status: line.status,
    ...(line.reason !== undefined ? { reason: line.reason } : {}),
    timed_region: line.timed_region,
    samples_ms: line.samples_ms,
    ...(timed && line.run_medians_ms !== undefined ? { run_medians_ms: line.run_medians_ms } : {}),
    median_ms: s?.median ?? null,
    min_ms: s?.min ?? null,
    max_ms: s?.max ?? null,
    q1_ms: s?.q1 ?? null,
    q3_ms: s?.q3 ?? null,
    stdrel: s?.stdrel ?? null,
    // a zero median (below timer resolution) has no finite rate: say nothing rather than Infinity
    gflops: positive ? gflops(line.flops, s.median) : null,
    bandwidth_gbs: positive ? gbPerS(line.bytes_moved, s.median) : null,
    flops: line.flops,
    bytes_moved: line.bytes_moved,
    peak_mem_bytes: line.peak_mem_bytes,
    verify: line.verify,
    ...(line.breakdown_ms !== undefined ? { breakdown_ms: line.breakdown_ms } : {}),
    ...(line.info !== undefined ? { info: line.info } : {}),
  };
}
