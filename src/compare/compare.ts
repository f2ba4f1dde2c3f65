// Pairs the cases (by id) and methods (by name) of two result files and gives each pair a verdict.
// Two bases for the test (docs/ci-workflow.md, "How compare decides"):
// * runs: both sides have ≥ 2 process runs (--repeat): ratio of the medians of run medians, Welch's
//   t-test on the log run medians, and a change inside the run-to-run spread is "noise";
// * samples: one run on a side: ratio of sample medians, bootstrap CI and Mann-Whitney U on the
//   samples of that run. Drift between processes is then not accounted for, and the report says so.
// A regression must be significant (p < alpha, CI above 1) AND slower than the threshold.
// Case level: when every method of a case, peers included, moves by a similar factor, the note calls
// it machine drift; --normalize-by-peers divides every ratio of the case by the peers' geometric mean
// (so ours/paper are judged relative to the peers, and the peers relative to each other).
import type { CaseResult, MethodResult, ResultFile } from '../results/schema.js';
import { EXIT, UserError } from '../util/errors.js';
import { bootstrapRatioCI, hashSeed, mannWhitney, median, runSpread, welchLog } from '../stats.js';
import { sameKernelNotes } from '../report/present.js';

export const VERDICTS = ['regression', 'failed', 'throttled', 'improvement', 'noise', 'unchanged', 'missing-base', 'missing-new', 'skipped'] as const;
export type Verdict = (typeof VERDICTS)[number];

export interface PairResult {
  caseId: string;
  label: string;
  method: string;
  verdict: Verdict;
  baseMedian: number | null;
  newMedian: number | null;
  ratio: number | null; // new / base (> 1: slower)
  ci: [number, number] | null;
  p: number | null;
  nBase: number;
  nNew: number;
  /** what the test worked on: run medians (≥ 2 runs per side) or the samples of single runs */
  basis: 'runs' | 'samples' | null;
  runsBase: number;
  runsNew: number;
  /** runs basis: the larger max/min of run medians of the two sides */
  spread: number | null;
  /** --normalize-by-peers: the peers' geometric-mean ratio the ratio was divided by */
  peerFactor: number | null;
  note: string;
}

/** A case where every compared method, peers included, moved by a similar factor. */
export interface CaseDrift {
  caseId: string;
  factor: number; // geometric mean of the methods' ratios
  methods: number;
}

export interface CompareOptions {
  threshold: number; // percent
  alpha: number;
  strictEnv: boolean;
  level?: number; // confidence level of the CI (default 0.95)
  resamples?: number; // bootstrap resamples (default 2000)
  seed?: number; // bootstrap seed (default 0); each pair derives its own from its names
  normalizeByPeers?: boolean; // divide each ratio by the geometric-mean ratio of the case's verified peers
}

export interface CompareReport {
  baseName: string;
  newName: string;
  baseEnv: string;
  newEnv: string;
  warnings: string[];
  pairs: PairResult[];
  counts: Record<Verdict, number>;
  drift: CaseDrift[];
  /** pairs judged on single runs (run-to-run drift not accounted for) */
  singleRunPairs: number;
  options: Required<Omit<CompareOptions, 'strictEnv'>> & { strictEnv: boolean };
  /** 0: no regression, 1: a regression or a failed method in the new file, 5: no regression, but a slower method whose new run was throttled. */
  exitCode: typeof EXIT.ok | typeof EXIT.regression | typeof EXIT.throttled;
}

function envSummary(f: ResultFile): string {
  const dev = f.device?.name ?? `${f.backend} backend`;
  return f.env?.cuda ? `${dev}, CUDA ${f.env.cuda.runtime} (driver ${f.env.cuda.driver})` : dev;
}

/** Differences between the machines of two files that make timings incomparable. */
export function envDifferences(base: ResultFile, next: ResultFile): string[] {
  const out: string[] = [];
  const diff = (what: string, a: unknown, b: unknown) => {
    if (a !== b) out.push(`${what} differs: base ${a === undefined || a === null ? '(none)' : String(a)}, new ${b === undefined || b === null ? '(none)' : String(b)}`);
  };
  diff('backend', base.backend, next.backend);
  diff('device', base.device?.name, next.device?.name);
  diff('compute capability', base.device?.cc, next.device?.cc);
  diff('CUDA runtime', base.env?.cuda?.runtime, next.env?.cuda?.runtime);
  diff('CUDA driver', base.env?.cuda?.driver, next.env?.cuda?.driver);
  return out;
}


function pct(r: number): string {
  const d = (r - 1) * 100;
  return `${d >= 0 ? '+' : ''}${d.toFixed(1)} %`;
}

const TIMED = (m: MethodResult | undefined): m is MethodResult => m?.status === 'ok';

/** The figures a pair is judged on: run medians when both sides have ≥ 2 runs, else the samples. */
function basisOf(b: MethodResult, n: MethodResult): { kind: 'runs' | 'samples'; base: number[]; new: number[] } {
  const br = b.run_medians_ms ?? [];
  const nr = n.run_medians_ms ?? [];
  if (br.length >= 2 && nr.length >= 2) return { kind: 'runs', base: br, new: nr };
  return { kind: 'samples', base: b.samples_ms, new: n.samples_ms };
}

/** new/base ratio of the central figures (medians of run medians or of samples); null when none. */
export function centralRatio(b: MethodResult | undefined, n: MethodResult | undefined): number | null {
  if (!TIMED(b) || !TIMED(n)) return null;
  const x = basisOf(b, n);
  const bm = x.base.length ? median(x.base) : b.median_ms;
  const nm = x.new.length ? median(x.new) : n.median_ms;
  return bm !== null && nm !== null && bm > 0 && nm > 0 ? nm / bm : null;
}

/**
 * A slowdown found significant is "throttled", not a regression, when the new run of the method ran
 * with the GPU throttled (clocks.throttled: SM clock at the end below the threshold of the max, or a
 * thermal/power clocks-event reason; cuda/common/nvml_clocks.cuh): the figure says nothing about the code.
 */
function throttledInstead(p: PairResult, n: MethodResult | undefined): PairResult {
  if (p.verdict !== 'regression' || !n?.clocks?.throttled) return p;
  return { ...p, verdict: 'throttled', note: `${p.note}; the new run was throttled (${n.clocks.throttle_why ?? 'clocks below the threshold'}): not judged, rerun on an unthrottled GPU` };
}

function judge(caseId: string, label: string, method: string, b: MethodResult | undefined, n: MethodResult | undefined, o: CompareReport['options'], peerFactor: number | null): PairResult {
  const res: PairResult = {
    caseId, label, method, verdict: 'unchanged', baseMedian: b?.median_ms ?? null, newMedian: n?.median_ms ?? null, ratio: null, ci: null, p: null,
    nBase: b?.samples_ms.length ?? 0, nNew: n?.samples_ms.length ?? 0, basis: null, runsBase: b?.run_medians_ms?.length ?? 1, runsNew: n?.run_medians_ms?.length ?? 1,
    spread: null, peerFactor: null, note: '',
  };
  if (!n) return { ...res, verdict: 'missing-new', note: 'method not in the new file' };
  if (!b) return { ...res, verdict: 'missing-base', note: 'method not in the base file' };
  if (n.status === 'failed' || n.status === 'error') {
    const why = n.status === 'failed' ? `verification failed${n.verify.detail ? `: ${n.verify.detail}` : ''}` : `error${n.reason ? `: ${n.reason}` : ''}`;
    return { ...res, verdict: 'failed', note: `new ${why}${b.status === 'ok' ? '' : ` (base: ${b.status})`}` };
  }
  if (n.status !== 'ok') return { ...res, verdict: 'skipped', note: `new: ${n.status}${n.reason ? ` (${n.reason})` : ''}; base: ${b.status}` };
  if (b.status !== 'ok') return { ...res, verdict: 'missing-base', note: `no base figure (base: ${b.status})` };

  const thr = o.threshold / 100;
  const x = basisOf(b, n);
  const f = peerFactor ?? 1; // new figures are divided by the peers' factor before judging
  const bs = x.base;
  const ns = f === 1 ? x.new : x.new.map((v) => v / f);
  const bm = bs.length ? median(bs) : b.median_ms;
  const nm = ns.length ? median(ns) : n.median_ms === null ? null : n.median_ms / f;
  if (bm === null || nm === null || !(bm > 0)) return { ...res, verdict: 'skipped', note: 'no positive median time to compare' };
  const ratio = nm / bm;
  const beyond = ratio > 1 + thr || ratio < 1 - thr;
  const norm = peerFactor === null ? '' : ` after ÷${peerFactor.toFixed(3)} for the peers`;
  const base = { ...res, baseMedian: bm, newMedian: nm * f, ratio, basis: x.kind, peerFactor };
  if (x.kind === 'runs') {
    const w = welchLog(bs, ns, o.level);
    const spread = Math.max(runSpread(bs), runSpread(ns));
    const out = { ...base, ci: w.ci, p: w.p, spread };
    const significant = w.p < o.alpha;
    const runs = `${bs.length} vs ${ns.length} runs`;
    if (ratio > 1 + thr && ratio > spread && significant && w.ci[0] > 1) return { ...out, verdict: 'regression', note: `${pct(ratio)} slower${norm} (${runs}, run spread ×${spread.toFixed(3)})` };
    if (ratio < 1 - thr && 1 / ratio > spread && significant && w.ci[1] < 1) return { ...out, verdict: 'improvement', note: `${pct(ratio)} (faster)${norm} (${runs})` };
    if (beyond) {
      const why = Math.max(ratio, 1 / ratio) <= spread ? `within the run-to-run spread (×${spread.toFixed(3)})` : `not significant across ${runs}`;
      return { ...out, verdict: 'noise', note: `${pct(ratio)}${norm} is ${why}` };
    }
    return { ...out, note: significant && Math.abs(ratio - 1) > 0.001 ? `${pct(ratio)}, below the ${o.threshold} % threshold` : '' };
  }
  const single = 'single run per side: run-to-run drift not accounted for';
  if (bs.length < 3 || ns.length < 3) {
    return { ...base, verdict: beyond ? 'noise' : 'unchanged', note: `too few samples for a test (base ${bs.length}, new ${ns.length})` };
  }
  const ci = bootstrapRatioCI(bs, ns, { seed: hashSeed(`${caseId}\u0000${method}`, o.seed), level: o.level, resamples: o.resamples });
  const { p } = mannWhitney(bs, ns);
  const significant = p < o.alpha;
  const out = { ...base, ci, p };
  if (ratio > 1 + thr && significant && ci[0] > 1) return { ...out, verdict: 'regression', note: `${pct(ratio)} slower${norm} (${single})` };
  if (ratio < 1 - thr && significant && ci[1] < 1) return { ...out, verdict: 'improvement', note: `${pct(ratio)} (faster)${norm} (${single})` };
  if (beyond) return { ...out, verdict: 'noise', note: `${pct(ratio)}${norm} is within the spread of the samples` };
  return { ...out, note: significant && Math.abs(ratio - 1) > 0.001 ? `${pct(ratio)}, below the ${o.threshold} % threshold` : '' };
}

function geoMean(xs: number[]): number {
  return Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);
}

/** Peers (cuSPARSE/cuBLAS: code spbench does not change) verified and timed on both sides. */
function peerRatios(pairs: [MethodResult | undefined, MethodResult | undefined][]): number[] {
  return pairs.filter(([b, n]) => b?.family === 'peer' && n?.family === 'peer' && b.verify.passed && n.verify.passed).map(([b, n]) => centralRatio(b, n)).filter((r): r is number => r !== null);
}

/**
 * Machine drift: ≥ 2 methods with ratios, at least one a peer, their geometric mean beyond the
 * threshold, and every ratio on the same side of 1 and within the threshold of that mean.
 */
export function caseDrift(caseId: string, pairs: [MethodResult | undefined, MethodResult | undefined][], thresholdPct: number): CaseDrift | null {
  const ratios = pairs.map(([b, n]) => centralRatio(b, n)).filter((r): r is number => r !== null);
  if (ratios.length < 2 || peerRatios(pairs).length === 0) return null;
  const g = geoMean(ratios);
  const band = Math.log(1 + Math.max(thresholdPct / 100, 0.02));
  if (Math.abs(Math.log(g)) <= Math.log(1 + thresholdPct / 100)) return null;
  if (!ratios.every((r) => Math.sign(Math.log(r)) === Math.sign(Math.log(g)) && Math.abs(Math.log(r / g)) <= band)) return null;
  return { caseId, factor: g, methods: ratios.length };
}

function byId(cases: CaseResult[], file: string): Map<string, CaseResult> {
  const m = new Map<string, CaseResult>();
  for (const c of cases) {
    if (m.has(c.id)) throw new UserError(`${file}: case id "${c.id}" appears twice; compare pairs cases by id`);
    m.set(c.id, c);
  }
  return m;
}

/** Compares two validated result files. Throws UserError (exit 2) on --strict-env mismatches. */
export async function compareResults(base: ResultFile, next: ResultFile, options: CompareOptions, names = { base: 'base', new: 'new' }): Promise<CompareReport> {
  const o = { level: 0.95, resamples: 2000, seed: 0, normalizeByPeers: false, ...options };
  if (!(o.threshold >= 0)) throw new UserError(`--threshold must be a non-negative percentage (got ${options.threshold})`);
  if (!(o.alpha > 0 && o.alpha < 1)) throw new UserError(`--alpha must be between 0 and 1 (got ${options.alpha})`);
  const warnings = envDifferences(base, next);
  if (warnings.length && o.strictEnv) throw new UserError(`${names.base} and ${names.new} come from different environments (--strict-env): ${warnings.join('; ')}`);
  const baseCases = byId(base.cases, names.base);
  const newCases = byId(next.cases, names.new);
  if (![...baseCases.keys()].some((id) => newCases.has(id))) {
    // renamed cases or the wrong file: a CI job must not pass with nothing compared
    throw new UserError(
      `nothing to compare: ${names.base} has ${baseCases.size} case${baseCases.size === 1 ? '' : 's'}, ${names.new} has ${newCases.size}, and no case id is in both (compare pairs cases by id)`,
    );
  }
  const pairs: PairResult[] = [];
  const ids = [...baseCases.keys(), ...[...newCases.keys()].filter((id) => !baseCases.has(id))];
  const drift: CaseDrift[] = [];
  for (const id of ids) {
    const bc = baseCases.get(id);
    const nc = newCases.get(id);
    const label = (nc ?? bc)!.label;
    const methods = [...new Set([...(bc?.results ?? []), ...(nc?.results ?? [])].map((r) => r.method))];
    const sides = methods.map((m) => [bc?.results.find((r) => r.method === m), nc?.results.find((r) => r.method === m)] as [MethodResult | undefined, MethodResult | undefined]);
    const peers = peerRatios(sides);
    const peerFactor = o.normalizeByPeers && peers.length ? geoMean(peers) : null;
    const d = caseDrift(id, sides, o.threshold);
    if (d) drift.push(d);
    // a run that timed one kernel twice far apart (report's timing checks): its other figures may be off too
    const disturbed = [...(bc ? sameKernelNotes(bc.results).map((n) => `base run: ${n}`) : []), ...(nc ? sameKernelNotes(nc.results).map((n) => `new run: ${n}`) : [])];
    methods.forEach((m, i) => {
      const [b, n] = sides[i];
      const pair = throttledInstead(judge(id, label, m, b, n, o, peerFactor), n);
      if (!bc) pair.note = 'case not in the base file';
      if (!nc) pair.note = 'case not in the new file';
      if (d && pair.ratio !== null) pair.note = [pair.note, `machine drift: all ${d.methods} methods of the case, peers included, moved ×${d.factor.toFixed(3)}`].filter(Boolean).join('; ');
      if (o.normalizeByPeers && !peers.length && pair.ratio !== null) pair.note = [pair.note, 'no verified peer in this case to normalize by'].filter(Boolean).join('; ');
      if (disturbed.length && pair.ratio !== null && pair.verdict !== 'unchanged') pair.note = [pair.note, ...disturbed].filter(Boolean).join('; ');
      pairs.push(pair);
    });
  }
  const counts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  for (const p of pairs) counts[p.verdict]++;
  return {
    baseName: names.base,
    newName: names.new,
    baseEnv: envSummary(base),
    newEnv: envSummary(next),
    warnings,
    pairs,
    counts,
    drift,
    singleRunPairs: pairs.filter((p) => p.basis === 'samples').length,
    options: o,
    exitCode: counts.regression + counts.failed > 0 ? EXIT.regression : counts.throttled > 0 ? EXIT.throttled : EXIT.ok,
  };
}
