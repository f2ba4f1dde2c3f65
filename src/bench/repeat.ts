// --repeat N: the native executable runs N times as separate processes on the same inputs. Samples
// within one process are tight, but the level moves between processes (clock state, memory
// placement), so compare needs one median per process run to see that drift (docs/ci-workflow.md).
import type { ResultLine } from '../native/protocol.js';
import { RuntimeFailure } from '../util/errors.js';
import type { BenchSink } from './api.js';
import { invokeNative, type NativeOutput, type ProgressTracker } from './native-run.js';
import type { BenchDeps } from './deps.js';
import { summarize } from '../stats.js';
import type { Op } from '../kinds.js';

/** A result line, with the medians of the separate runs when there were several. */
export type RepeatedLine = ResultLine & { run_medians_ms?: number[] };

const RANK: Record<ResultLine['status'], number> = { error: 0, failed: 1, not_applicable: 2, ok: 3 };

function key(l: ResultLine): string {
  return `${l.method}\u0000${String(l.params.nb ?? '')}`;
}

/**
 * Merges the result lines of N runs: per (method, n_B) the samples of every run one after another and
 * one median per run. A method that is not ok in some run keeps that run's line (the worst status
 * wins: a failure in any run is a failure). Every run must report the same (method, n_B) set.
 */
export function mergeRuns(runs: ResultLine[][]): RepeatedLine[] {
  if (runs.length === 1) return runs[0];
  const first = runs[0];
  const keys = first.map(key);
  const byRun = runs.map((lines, i) => {
    const m = new Map(lines.map((l) => [key(l), l]));
    const missing = keys.find((k) => !m.has(k));
    if (missing !== undefined || m.size !== keys.length) {
      throw new RuntimeFailure(`run ${i + 1} of ${runs.length} printed a different set of results than run 1 (${missing ? `no ${missing.replace('\u0000', ' nb=')}` : `${m.size} vs ${keys.length} results`})`);
    }
    return m;
  });
  return first.map((l, j) => {
    const all = byRun.map((m) => m.get(keys[j])!);
    const worst = all.reduce((w, x) => (RANK[x.status] < RANK[w.status] ? x : w));
    if (worst.status !== 'ok' || all.some((x) => x.samples_ms.length === 0)) return worst;
    // clocks: a throttled run's (compare must see it), else the first run's; sampling: the first run's
    const clocks = all.find((x) => x.clocks?.throttled)?.clocks ?? l.clocks;
    return { ...l, ...(clocks ? { clocks } : {}), samples_ms: all.flatMap((x) => x.samples_ms), run_medians_ms: all.map((x) => summarize(x.samples_ms).median) };
  });
}

/** invokeNative `repeat` times (separate processes, same arguments) and merges the runs. */
export async function invokeRepeated(deps: BenchDeps, exe: string, args: string[], op: Op, sink: BenchSink, progress: ProgressTracker, label: string, repeat = 1): Promise<NativeOutput & { results: RepeatedLine[] }> {
  const outs: NativeOutput[] = [];
  for (let i = 0; i < repeat; i++) {
    outs.push(await invokeNative(deps, exe, args, op, sink, progress, repeat > 1 ? `${label} [run ${i + 1}/${repeat}]` : label));
  }
  return { env: outs[0].env, results: mergeRuns(outs.map((o) => o.results)) };
}
