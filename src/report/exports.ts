// Exports of a result file for the dashboards CI users already keep history in:
//  * Bencher Metric Format (bencher.dev `bencher run --adapter json`): { benchmark: { measure: { value, lower_value?,
//    upper_value? } } }; latency in nanoseconds (Bencher's built-in measure), GFLOPS and peak memory as custom measures.
//  * github-action-benchmark's custom JSON (tool: customSmallerIsBetter): [{ name, unit, value, range?, extra? }], one
//    entry a verified method, the median time in ms (smaller is better), GFLOPS and the check in `extra`.
// Only results with a figure (status ok, verified or unchecked) are exported: a failed method has no speed to track.
import type { CaseResult, MethodResult, ResultFile } from '../results/schema.js';

type Timed = { c: CaseResult; r: MethodResult & { median_ms: number } };

function timed(file: ResultFile): Timed[] {
  const out: Timed[] = [];
  for (const c of file.cases)
    for (const r of c.results) if (r.status === 'ok' && r.median_ms !== null) out.push({ c, r: r as Timed['r'] });
  return out;
}

/** The benchmark's name: case id and method (stable across runs, which is what the dashboards key history on). */
export function exportName(c: CaseResult, r: MethodResult): string {
  return `${c.id}/${r.method}`;
}

export interface BmfMetric { value: number; lower_value?: number; upper_value?: number }
export type Bmf = Record<string, Record<string, BmfMetric>>;

export function toBmf(file: ResultFile): Bmf {
  const out: Bmf = {};
  for (const { c, r } of timed(file)) {
    const latency: BmfMetric = { value: r.median_ms * 1e6 };
    if (r.q1_ms !== null && r.q3_ms !== null) { latency.lower_value = r.q1_ms * 1e6; latency.upper_value = r.q3_ms * 1e6; }
    const m: Record<string, BmfMetric> = { latency };
    if (r.gflops !== null) m.gflops = { value: r.gflops };
    m['peak-memory-bytes'] = { value: r.peak_mem_bytes };
    out[exportName(c, r)] = m;
  }
  return out;
}

export interface BenchmarkActionEntry { name: string; unit: string; value: number; range?: string; extra?: string }

export function toBenchmarkAction(file: ResultFile): BenchmarkActionEntry[] {
  const where = file.device ? file.device.name : `${file.backend} backend`;
  return timed(file).map(({ c, r }) => {
    const e: BenchmarkActionEntry = { name: exportName(c, r), unit: 'ms', value: r.median_ms };
    if (r.q1_ms !== null && r.q3_ms !== null) e.range = `${r.q1_ms}..${r.q3_ms} (quartiles)`;
    const check = r.verify.checked ? `verified vs ${r.verify.reference}` : 'not verified';
    e.extra = [r.gflops !== null ? `${r.gflops.toFixed(2)} GFLOPS` : null, `peak ${r.peak_mem_bytes} B`, check, where, file.spbench.commit ? `commit ${file.spbench.commit}` : null]
      .filter(Boolean)
      .join('; ');
    return e;
  });
}

export const renderBmf = (file: ResultFile): string => `${JSON.stringify(toBmf(file), null, 2)}\n`;
export const renderBenchmarkAction = (file: ResultFile): string => `${JSON.stringify(toBenchmarkAction(file), null, 2)}\n`;
