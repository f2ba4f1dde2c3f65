// The one place where timing samples become figures: median, quartiles, spread (src/stats.ts), GFLOPS, bandwidth.
// Native executables report raw samples only (docs/native-protocol.md), so every figure in tables,
// JSON and comparisons is computed here the same way.
import type { ResultLine } from '../native/protocol.js';
import type { MethodResult } from '../results/schema.js';
import { summarize } from '../stats.js';

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
    ...(line.cache !== undefined ? { cache: line.cache } : {}),
    ...(line.sampling !== undefined ? { sampling: line.sampling } : {}),
    ...(line.clocks !== undefined ? { clocks: line.clocks } : {}),
  };
}
