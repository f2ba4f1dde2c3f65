// Statistics for compare: median, a seeded bootstrap confidence interval of the ratio of medians,
// and the Mann-Whitney U test (normal approximation with tie and continuity correction).

/** Median of a copy of `xs` (the input is not reordered). NaN for an empty array. */
export function median(xs: readonly number[]): number {
  if (!xs.length) return NaN;
  const s = Float64Array.from(xs).sort();
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
}

/** mulberry32: small, fast, seeded PRNG so that confidence intervals are reproducible. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
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
 * correction; good enough for n ≥ 10 per side (spbench takes ≥ 20 samples). `erf` is passed in so
 * that mathjs is loaded only by the caller that needs it.
 */
export function mannWhitney(a: readonly number[], b: readonly number[], erf: (x: number) => number): MannWhitney {
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
  const p = Math.min(1, 2 * (1 - 0.5 * (1 + erf(z / Math.SQRT2))));
  return { u, z: u >= mu ? z : -z, p };
}

// ---- Welch's t-test on the logs of run medians (compare with --repeat runs) ----------------------
// Few runs per side (3–5): a rank test cannot reach p < 0.05 with 3 vs 3 (its smallest two-sided p is
// 0.1), so the run medians are compared on a log scale with Welch's t-test, which can; the log makes
// the test about a ratio and tames the skew of timings. The t distribution comes from the regularized
// incomplete beta function (continued fraction, modified Lentz), with a Lanczos log-gamma.

const LANCZOS = [676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];

/** ln Γ(x) for x > 0 (Lanczos, g = 7; ~15 digits). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let a = 0.99999999999980993;
  const t = z + 7.5;
  for (let i = 0; i < LANCZOS.length; i++) a += LANCZOS[i] / (z + i + 1);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

function betaContinuedFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  d = 1 / (Math.abs(d) < tiny ? tiny : d);
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    for (const num of [(m * (b - m) * x) / ((a + m2 - 1) * (a + m2)), (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1))]) {
      d = 1 + num * d;
      d = 1 / (Math.abs(d) < tiny ? tiny : d);
      c = 1 + num / c;
      if (Math.abs(c) < tiny) c = tiny;
      h *= d * c;
    }
    if (Math.abs(d * c - 1) < 1e-15) break;
  }
  return h;
}

/** Regularized incomplete beta I_x(a, b). */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? (front * betaContinuedFraction(a, b, x)) / a : 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

/** Two-sided p of Student's t with `df` degrees of freedom: P(|T| ≥ |t|). */
export function tTwoSidedP(t: number, df: number): number {
  if (!Number.isFinite(t)) return 0;
  return incompleteBeta(df / (df + t * t), df / 2, 0.5);
}

/** The t with P(|T| ≥ t) = p (bisection; p in (0, 1)). */
export function tCritical(p: number, df: number): number {
  let lo = 0;
  let hi = 1e6;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (tTwoSidedP(mid, df) > p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
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
