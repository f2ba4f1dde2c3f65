// What the table and plain renderers both show, decided once: row order, status words, the
// comparison with the fastest peer, the case header and number formats.
import type { CaseResult, MethodResult, ResultFile } from '../results/schema.js';

const STATUS_ORDER: Record<MethodResult['status'], number> = { ok: 0, failed: 1, error: 2, not_applicable: 3 };

/** Fastest first; methods without a speed (failed, error, not applicable) after them. */
export function orderResults(results: readonly MethodResult[]): MethodResult[] {
  return [...results].sort((a, b) => {
    const s = STATUS_ORDER[a.status] - STATUS_ORDER[b.status];
    if (s !== 0) return s;
    return (a.median_ms ?? Infinity) - (b.median_ms ?? Infinity) || a.method.localeCompare(b.method);
  });
}

export function hasSpeed(r: MethodResult): r is MethodResult & { median_ms: number } {
  return r.status === 'ok' && r.median_ms !== null;
}

/** The fastest of the results that have a speed, if any. */
export function fastest(results: readonly (MethodResult | undefined)[]): (MethodResult & { median_ms: number }) | null {
  let best: (MethodResult & { median_ms: number }) | null = null;
  for (const r of results) if (r && hasSpeed(r) && (!best || r.median_ms < best.median_ms)) best = r;
  return best;
}

/** The fastest verified method of the "peer" family (cuSPARSE, cuBLAS, ...), if any; what speedups are measured against. */
export function fastestPeer(results: readonly (MethodResult | undefined)[]): (MethodResult & { median_ms: number }) | null {
  return fastest(results.filter((r) => r?.family === 'peer'));
}

/** How many times faster than the fastest peer (> 1 is faster); null without a speed or a peer. */
export function speedupVsPeer(r: MethodResult, peer: MethodResult | null): number | null {
  if (!peer || !hasSpeed(r) || peer.median_ms === null || r.median_ms <= 0) return null;
  return peer.median_ms / r.median_ms;
}

/** The method's name; for `auto` also the kernel the planner picked (info.choice), e.g. "auto → batched-ell". */
export function methodLabel(r: MethodResult): string {
  const choice = r.info?.choice;
  return typeof choice === 'string' && choice ? `${r.method} → ${choice}` : r.method;
}

// Info fields that say how a result was timed or chosen, not which kernel and plan ran.
const TIMING_INFO = new Set(['choice', 'rule', 'reps_per_sample', 'calls_per_graph']);
/** Two timings of one kernel and plan further apart than this (slower / faster) are a disturbed measurement. */
export const SAME_KERNEL_GAP = 1.2;

/**
 * `auto` runs the kernel of the method it chose (info.choice); where that method ran in the same case with the
 * same plan (every info field but the timing ones equal), the case timed one kernel twice. Apart by more than
 * SAME_KERNEL_GAP, one of the two figures was disturbed (seen on an H100: 3.10 against 2.01 µs over all 20
 * samples of each, at full clocks), and so may be the case's other figures: one line for each such pair.
 */
export function sameKernelNotes(results: readonly MethodResult[]): string[] {
  const notes: string[] = [];
  for (const r of results) {
    const choice = r.info?.choice;
    if (typeof choice !== 'string' || !hasSpeed(r)) continue;
    const other = results.find((x) => x !== r && x.method === choice);
    if (!other || !hasSpeed(other) || r.median_ms <= 0 || other.median_ms <= 0) continue;
    const plan = (x: MethodResult) => JSON.stringify(Object.entries(x.info ?? {}).filter(([k]) => !TIMING_INFO.has(k)).sort(([a], [b]) => a.localeCompare(b)));
    if (plan(r) !== plan(other)) continue;
    const gap = Math.max(r.median_ms, other.median_ms) / Math.min(r.median_ms, other.median_ms);
    if (gap <= SAME_KERNEL_GAP) continue;
    notes.push(
      `${r.method} ran ${choice}'s kernel and plan in ${fmtUs(r.median_ms)} µs, ${choice} in ${fmtUs(other.median_ms)} µs (${fmtRatio(gap)} apart): ` +
        'one of the two timings was disturbed; rerun the case before reading its figures',
    );
  }
  return notes;
}

/** The timing-check notes of several cases, each led by its case's label (the reports' list under a figure). */
export function timingCheckLines(cases: readonly CaseResult[]): string[] {
  return cases.flatMap((c) => sameKernelNotes(c.results).map((n) => `${c.label}: ${n}`));
}

/** The status word of a result in every table ("–" where the method did not run). */
/** Whether a case's tables get the sampling column: some method sampled with --samples auto or ran throttled. */
export function showsSampling(results: MethodResult[]): boolean {
  return results.some((r) => r.sampling?.samples === 'auto' || r.clocks?.throttled);
}

/** Samples taken, the rule that stopped --samples auto, and THROTTLED where the GPU clocks were down (clocks.throttle_why). */
export function samplingText(r: MethodResult): string {
  const auto = r.sampling?.samples === 'auto' ? ` (${r.sampling.rule}${r.sampling.noise_pct !== null ? ` ±${r.sampling.noise_pct.toFixed(2)} %` : ''})` : '';
  return `${r.samples_ms.length}${auto}${r.clocks?.throttled ? ' THROTTLED' : ''}`;
}

export function statusText(r: MethodResult | undefined): string {
  if (!r) return '–';
  switch (r.status) {
    case 'ok':
      return r.verify.checked && r.verify.passed ? 'verified ✓' : 'ok (unverified)';
    case 'failed':
      return 'FAILED';
    case 'error':
      return 'ERROR';
    case 'not_applicable':
      return 'n/a';
  }
}

/** Why a method has no figures: the verification detail for failures, the reason otherwise. */
export function reasonText(r: MethodResult): string {
  if (r.status === 'failed') {
    const err = r.verify.max_rel_err === null ? '' : `error ${fmtSci(r.verify.max_rel_err)} > tol ${fmtSci(r.verify.tol)}`;
    return [r.verify.detail, r.reason, err].filter((s) => s).join('; ') || 'verification failed';
  }
  if (r.status === 'ok' && !r.verify.checked) return r.reason ?? 'no reference available';
  return r.reason ?? '';
}

export function backendText(file: Pick<ResultFile, 'backend' | 'device' | 'env'>): string {
  if (file.backend === 'cpu') {
    const n = file.env?.threads;
    const threads = n ? `, ${n} thread${n === 1 ? '' : 's'}` : '';
    return `CPU backend — not GPU figures (reference C++${threads})`;
  }
  const d = file.device;
  const cuda = file.env?.cuda ? ` · CUDA ${file.env.cuda.runtime}, driver ${file.env.cuda.driver}` : '';
  return d ? `GPU ${d.name} (cc ${d.cc}, ${d.sms} SMs)${cuda}` : `GPU (device unknown)${cuda}`;
}

function distinct(xs: string[]): string {
  return [...new Set(xs)].join(', ');
}

/** One line that says what the figures of a case mean: backend, timed region, layout, tolerance. */
export function caseHeader(c: CaseResult, file: Pick<ResultFile, 'backend' | 'device' | 'env'>): string {
  const parts = [backendText(file)];
  const regions = distinct(c.results.map((r) => r.timed_region));
  if (c.op === 'spmm') {
    parts.push(`mode ${String(c.params.mode ?? 'kernel')} (timed: ${regions})`);
    parts.push(`B, C ${c.params.layout === 'col' ? 'column' : 'row'}-major`);
  } else {
    parts.push(`timed: ${regions}${regions.includes('whole') ? ', allocation of C included' : ''}`);
  }
  const checked = c.results.filter((r) => r.verify.checked);
  if (checked.length) {
    parts.push(`verified vs ${distinct(checked.map((r) => r.verify.reference))}, tol ${distinct(checked.map((r) => fmtSci(r.verify.tol)))} (normalized error)`);
  }
  return parts.join(' · ');
}

// ---- number formats (3 significant digits keep columns narrow and honest about precision) ----

export function fmtSig(x: number): string {
  if (x === 0) return '0';
  if (Math.abs(x) >= 1000) return Math.round(x).toString();
  return Number(x.toPrecision(3)).toString();
}

export function fmtSci(x: number): string {
  return x === 0 ? '0' : x.toExponential(1);
}

export function fmtUs(ms: number | null): string {
  return ms === null ? '' : fmtSig(ms * 1000);
}

export function fmtSpreadUs(r: MethodResult): string {
  if (!hasSpeed(r) || r.q1_ms === null || r.q3_ms === null) return '';
  return `${fmtSig(r.q1_ms * 1000)}–${fmtSig(r.q3_ms * 1000)}`;
}

export function fmtRate(x: number | null): string {
  return x === null ? '' : fmtSig(x);
}

export function fmtBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${n} B` : `${fmtSig(v)} ${units[i]}`;
}

export function fmtRatio(x: number | null): string {
  return x === null ? '' : `${x >= 10 ? x.toFixed(1) : x.toFixed(2)}×`;
}
