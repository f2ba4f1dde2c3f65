// Pairs the cases (by id) and methods (by name) of two result files and gives each pair a verdict
// from the stored samples: ratio of medians new/base, its bootstrap confidence interval and a
// Mann-Whitney U test. A regression must be significant (p < alpha, CI above 1) AND slower than the
// threshold; a change beyond the threshold that the test cannot separate from the spread is "noise".
import type { CaseResult, MethodResult, ResultFile } from '../bench/result-file.js';
import { UserError } from '../util/errors.js';
import { bootstrapRatioCI, hashSeed, mannWhitney, median } from './stats.js';

export const VERDICTS = ['regression', 'failed', 'improvement', 'noise', 'unchanged', 'missing-base', 'missing-new', 'skipped'] as const;
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
  note: string;
}

export interface CompareOptions {
  threshold: number; // percent
  alpha: number;
  strictEnv: boolean;
  level?: number; // confidence level of the CI (default 0.95)
  resamples?: number; // bootstrap resamples (default 2000)
  seed?: number; // bootstrap seed (default 0); each pair derives its own from its names
}

export interface CompareReport {
  baseName: string;
  newName: string;
  baseEnv: string;
  newEnv: string;
  warnings: string[];
  pairs: PairResult[];
  counts: Record<Verdict, number>;
  options: Required<Omit<CompareOptions, 'strictEnv'>> & { strictEnv: boolean };
  /** 0: no regression, 1: a regression or a failed method in the new file. */
  exitCode: 0 | 1;
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

type Erf = (x: number) => number;

function pct(r: number): string {
  const d = (r - 1) * 100;
  return `${d >= 0 ? '+' : ''}${d.toFixed(1)} %`;
}

function judge(caseId: string, label: string, method: string, b: MethodResult | undefined, n: MethodResult | undefined, o: CompareReport['options'], erf: Erf): PairResult {
  const res: PairResult = { caseId, label, method, verdict: 'unchanged', baseMedian: b?.median_ms ?? null, newMedian: n?.median_ms ?? null, ratio: null, ci: null, p: null, nBase: b?.samples_ms.length ?? 0, nNew: n?.samples_ms.length ?? 0, note: '' };
  if (!n) return { ...res, verdict: 'missing-new', note: 'method not in the new file' };
  if (!b) return { ...res, verdict: 'missing-base', note: 'method not in the base file' };
  if (n.status === 'failed' || n.status === 'error') {
    const why = n.status === 'failed' ? `verification failed${n.verify.detail ? `: ${n.verify.detail}` : ''}` : `error${n.reason ? `: ${n.reason}` : ''}`;
    return { ...res, verdict: 'failed', note: `new ${why}${b.status === 'ok' ? '' : ` (base: ${b.status})`}` };
  }
  if (n.status !== 'ok') return { ...res, verdict: 'skipped', note: `new: ${n.status}${n.reason ? ` (${n.reason})` : ''}; base: ${b.status}` };
  if (b.status !== 'ok') return { ...res, verdict: 'missing-base', note: `no base figure (base: ${b.status})` };

  const thr = o.threshold / 100;
  const bs = b.samples_ms;
  const ns = n.samples_ms;
  const bm = bs.length ? median(bs) : b.median_ms;
  const nm = ns.length ? median(ns) : n.median_ms;
  if (bm === null || nm === null || !(bm > 0)) return { ...res, verdict: 'skipped', note: 'no positive median time to compare' };
  const ratio = nm / bm;
  const beyond = ratio > 1 + thr || ratio < 1 - thr;
  const base = { ...res, baseMedian: bm, newMedian: nm, ratio };
  if (bs.length < 3 || ns.length < 3) {
    return { ...base, verdict: beyond ? 'noise' : 'unchanged', note: `too few samples for a test (base ${bs.length}, new ${ns.length})` };
  }
  const ci = bootstrapRatioCI(bs, ns, { seed: hashSeed(`${caseId}\u0000${method}`, o.seed), level: o.level, resamples: o.resamples });
  const { p } = mannWhitney(bs, ns, erf);
  const significant = p < o.alpha;
  const out = { ...base, ci, p };
  if (ratio > 1 + thr && significant && ci[0] > 1) return { ...out, verdict: 'regression', note: `${pct(ratio)} slower` };
  if (ratio < 1 - thr && significant && ci[1] < 1) return { ...out, verdict: 'improvement', note: `${pct(ratio)} (faster)` };
  if (beyond) return { ...out, verdict: 'noise', note: `${pct(ratio)} is within the spread of the samples` };
  return { ...out, note: significant && Math.abs(ratio - 1) > 0.001 ? `${pct(ratio)}, below the ${o.threshold} % threshold` : '' };
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
  const o = { level: 0.95, resamples: 2000, seed: 0, ...options };
  if (!(o.threshold >= 0)) throw new UserError(`--threshold must be a non-negative percentage (got ${options.threshold})`);
  if (!(o.alpha > 0 && o.alpha < 1)) throw new UserError(`--alpha must be between 0 and 1 (got ${options.alpha})`);
  const warnings = envDifferences(base, next);
  if (warnings.length && o.strictEnv) throw new UserError(`${names.base} and ${names.new} come from different environments (--strict-env): ${warnings.join('; ')}`);
  const { erf } = (await import('mathjs')) as unknown as { erf: Erf };
  const baseCases = byId(base.cases, names.base);
  const newCases = byId(next.cases, names.new);
  const pairs: PairResult[] = [];
  const ids = [...baseCases.keys(), ...[...newCases.keys()].filter((id) => !baseCases.has(id))];
  for (const id of ids) {
    const bc = baseCases.get(id);
    const nc = newCases.get(id);
    const label = (nc ?? bc)!.label;
    const methods = [...new Set([...(bc?.results ?? []), ...(nc?.results ?? [])].map((r) => r.method))];
    for (const m of methods) {
      const pair = judge(id, label, m, bc?.results.find((r) => r.method === m), nc?.results.find((r) => r.method === m), o, erf);
      if (!bc) pair.note = 'case not in the base file';
      if (!nc) pair.note = 'case not in the new file';
      pairs.push(pair);
    }
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
    options: o,
    exitCode: counts.regression + counts.failed > 0 ? 1 : 0,
  };
}
