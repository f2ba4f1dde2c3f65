// Shards: a stable, deterministic partition of a suite's cases into N parts balanced by estimated
// cost (longest first onto the least-loaded part, ties broken by case name), so that N machines —
// a Slurm array, a CI matrix — each run one part and `spbench merge` joins the result files.
import type { Suite, SuiteCase } from '../suite/schema.js';
import { UserError } from '../util/errors.js';
import { caseCost } from './cost.js';

export interface ShardSpec {
  index: number; // 1-based K of K/N
  count: number; // N
}

/** "K/N" with 1 ≤ K ≤ N; `what` names the source in errors (an option or a variable). */
export function parseShard(text: string, what = '--shard'): ShardSpec {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) throw new UserError(`${what}: expected K/N (e.g. 2/4) or "auto", got "${text}"`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index < 1 || index > count) throw new UserError(`${what}: "${text}" needs 1 ≤ K ≤ N`);
  return { index, count };
}

/** Longest-first greedy onto `n` bins; ties (equal cost, equal load) broken by name, then bin number. */
export function partition<T>(items: T[], n: number, cost: (t: T) => number, name: (t: T) => string): T[][] {
  const sorted = [...items].sort((a, b) => cost(b) - cost(a) || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
  const bins: T[][] = Array.from({ length: n }, () => []);
  const load = new Array<number>(n).fill(0);
  for (const it of sorted) {
    let best = 0;
    for (let i = 1; i < n; i++) if (load[i] < load[best]) best = i;
    bins[best].push(it);
    load[best] += cost(it);
  }
  return bins;
}

/** The cases of shard K/N in suite order. Throws when the shard would be empty. */
export function shardCases(suite: Suite, shard: ShardSpec, cost: (c: SuiteCase) => number = caseCost): SuiteCase[] {
  if (shard.count > suite.cases.length) {
    throw new UserError(`--shard ${shard.index}/${shard.count}: suite "${suite.name}" has only ${suite.cases.length} case(s), so ${shard.count} shards would leave some empty; use at most ${suite.cases.length}`);
  }
  const bins = partition(suite.cases, shard.count, cost, (c) => c.name);
  const mine = new Set(bins[shard.index - 1].map((c) => c.name));
  return suite.cases.filter((c) => mine.has(c.name));
}
