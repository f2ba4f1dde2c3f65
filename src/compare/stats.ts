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
