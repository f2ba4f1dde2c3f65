// Statistics, in one module: summaries of timing samples (median, quartiles, spread), a seeded
// PRNG and bootstrap confidence interval of a ratio of medians, the Mann-Whitney U test (normal
// approximation with tie and continuity correction) and Welch's t-test on logs. The normal and
// Student's t distributions come from jstat.
import jstat from 'jstat';
import { rng } from './util/prng.js';

export { rng };

const { jStat } = jstat;

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

/** Median, quartiles, extremes and relative spread of timing samples. */
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

/** Median of a copy of `xs` (the input is not reordered). NaN for an empty array. */
export function median(xs: readonly number[]): number {
  if (!xs.length) return NaN;
  const s = Float64Array.from(xs).sort();
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
}

/** FNV-1a hash of a string, for per-pair seeds that do not depend on the order of pairs. */
export function hashSeed(text: string, seed = 0): number {
  let h = 0x811c9dc5 ^ seed;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function resampleMedian(xs: readonly number[], buf: Float64Array, next: () => number): number {
  const n = xs.length;
  for (let i = 0; i < n; i++) buf[i] = xs[Math.floor(next() * n)];
  buf.sort();
  const h = n >> 1;
  return n % 2 ? buf[h] : (buf[h - 1] + buf[h]) / 2;
}

/** Percentile bootstrap CI of median(b) / median(a), resampling each set independently. */
export function bootstrapRatioCI(a: readonly number[], b: readonly number[], opts: { seed: number; level?: number; resamples?: number }): [number, number] {
  const level = opts.level ?? 0.95;
  const reps = opts.resamples ?? 2000;
  const next = rng(opts.seed);
  const ba = new Float64Array(a.length);
  const bb = new Float64Array(b.length);
  const ratios = new Float64Array(reps);
  for (let i = 0; i < reps; i++) ratios[i] = resampleMedian(b, bb, next) / resampleMedian(a, ba, next);
  ratios.sort();
  const lo = ratios[Math.floor(((1 - level) / 2) * (reps - 1))];
  const hi = ratios[Math.ceil((1 - (1 - level) / 2) * (reps - 1))];
  return [lo, hi];
}

export interface MannWhitney {
  u: number; // U of the first sample
  z: number;
  p: number; // two-sided
}

/**
 * Mann-Whitney U test, two-sided, normal approximation with tie correction and continuity
 * correction; good enough for n ≥ 10 per side (spbench takes ≥ 20 samples).
 */
export function mannWhitney(a: readonly number[], b: readonly number[]): MannWhitney {
  const n1 = a.length;
  const n2 = b.length;
  const all = [...a.map((v) => ({ v, g: 0 })), ...b.map((v) => ({ v, g: 1 }))].sort((x, y) => x.v - y.v);
  const n = all.length;
  let rankSumA = 0;
  let tieTerm = 0;
  for (let i = 0; i < n; ) {
    let j = i;
    while (j + 1 < n && all[j + 1].v === all[i].v) j++;
    const t = j - i + 1;
    const rank = (i + j + 2) / 2; // average of ranks i+1 .. j+1
    for (let k = i; k <= j; k++) if (all[k].g === 0) rankSumA += rank;
    tieTerm += t ** 3 - t;
    i = j + 1;
  }
  const u = rankSumA - (n1 * (n1 + 1)) / 2;
  const mu = (n1 * n2) / 2;
  const variance = ((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1)));
  if (!(variance > 0)) return { u, z: 0, p: 1 };
  const diff = Math.abs(u - mu);
  const z = Math.max(0, diff - 0.5) / Math.sqrt(variance);
  const p = Math.min(1, 2 * (1 - jStat.normal.cdf(z, 0, 1)));
  return { u, z: u >= mu ? z : -z, p };
}

// ---- Welch's t-test on the logs of run medians (compare with --repeat runs) ----------------------
// Few runs per side (3–5): a rank test cannot reach p < 0.05 with 3 vs 3 (its smallest two-sided p is
// 0.1), so the run medians are compared on a log scale with Welch's t-test, which can; the log makes
// the test about a ratio and tames the skew of timings.

/** Two-sided p of Student's t with `df` degrees of freedom: P(|T| ≥ |t|). */
export function tTwoSidedP(t: number, df: number): number {
  if (!Number.isFinite(t)) return 0;
  return Math.min(1, 2 * (1 - jStat.studentt.cdf(Math.abs(t), df)));
}

/** The t with P(|T| ≥ t) = p (p in (0, 1)). */
export function tCritical(p: number, df: number): number {
  return jStat.studentt.inv(1 - p / 2, df);
}

export interface WelchLog {
  t: number;
  df: number;
  p: number; // two-sided
  ci: [number, number]; // CI of the ratio of geometric means new/base
}

function meanVar(xs: number[]): [number, number] {
  const m = xs.reduce((s, x) => s + x, 0) / xs.length;
  return [m, xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1)];
}

/** Welch's t-test on ln(values), each side ≥ 2 positive values; CI at `level` of exp(mean difference). */
export function welchLog(base: readonly number[], next: readonly number[], level = 0.95): WelchLog {
  const [mb, vb] = meanVar(base.map(Math.log));
  const [mn, vn] = meanVar(next.map(Math.log));
  const eb = vb / base.length;
  const en = vn / next.length;
  const se = Math.sqrt(eb + en);
  const diff = mn - mb;
  if (!(se > 0)) return { t: diff === 0 ? 0 : Math.sign(diff) * Infinity, df: base.length + next.length - 2, p: diff === 0 ? 1 : 0, ci: [Math.exp(diff), Math.exp(diff)] };
  const df = (eb + en) ** 2 / (eb ** 2 / (base.length - 1) + en ** 2 / (next.length - 1));
  const t = diff / se;
  const half = tCritical(1 - level, df) * se;
  return { t, df, p: tTwoSidedP(t, df), ci: [Math.exp(diff - half), Math.exp(diff + half)] };
}

/** Run-to-run spread of one side: max/min of its run medians (1 = no spread). */
export function runSpread(xs: readonly number[]): number {
  return Math.max(...xs) / Math.min(...xs);
}
