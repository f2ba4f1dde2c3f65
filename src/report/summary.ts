// The headline of a result file whose cases ran our methods beside the peers: in how many cases the best
// of ours beats the fastest peer, the geometric mean of that ratio, and how close `auto` (the planner's pick)
// comes to the best of ours. What the README quotes for a suite; computed from the file, not typed by hand.
import type { CaseResult } from '../results/schema.js';
import { fastest } from './present.js';

/** `auto` counts as a good pick within this factor of the best of ours. */
export const AUTO_WITHIN = 1.1;

export interface OursVsPeers {
  /** Cases with a verified figure of ours (auto aside) and of a peer. */
  cells: number;
  /** Of those, where the best of ours is at least as fast as the fastest peer. */
  ahead: number;
  /** Geometric mean over `cells` of fastest peer's median / best of ours' median. */
  geomean: number;
  /** Cases with an `auto` figure and one of ours beside it. */
  autoCells: number;
  /** Of those, where auto's median is within AUTO_WITHIN of the best of ours. */
  autoWithin: number;
}

/** Null where no case has both a figure of ours and one of a peer (a CPU file, a peers-only run). */
export function oursVsPeers(cases: readonly CaseResult[]): OursVsPeers | null {
  let cells = 0, ahead = 0, logSum = 0, autoCells = 0, autoWithin = 0;
  for (const c of cases) {
    const ours = fastest(c.results.filter((r) => r.family === 'ours' && r.method !== 'auto'));
    const peer = fastest(c.results.filter((r) => r.family === 'peer'));
    const auto = fastest(c.results.filter((r) => r.method === 'auto'));
    if (ours && peer && ours.median_ms > 0) {
      cells++;
      const ratio = peer.median_ms / ours.median_ms;
      if (ratio >= 1) ahead++;
      logSum += Math.log(ratio);
    }
    if (ours && auto) {
      autoCells++;
      if (auto.median_ms <= AUTO_WITHIN * ours.median_ms) autoWithin++;
    }
  }
  return cells ? { cells, ahead, geomean: Math.exp(logSum / cells), autoCells, autoWithin } : null;
}

/** One sentence of a summary; `mode` names the timed mode where a file has several (kernel, e2e, graph differ by design). */
export function oursVsPeersText(s: OursVsPeers, mode?: string): string {
  const auto = s.autoCells ? `; \`auto\` within ${Math.round((AUTO_WITHIN - 1) * 100)} % of the best of ours in ${s.autoWithin} of ${s.autoCells}` : '';
  return `The best of ours against the fastest peer${mode ? ` (${mode} mode)` : ''}: ahead or level in ${s.ahead} of ${s.cells} cases, geometric mean ${s.geomean.toFixed(2)}×${auto}.`;
}

/** The summary sentences of a file: one, or one per timed mode where the cases ran in several. */
export function summaryLines(cases: readonly CaseResult[]): string[] {
  const modes = [...new Set(cases.map((c) => c.params.mode).filter((m): m is string => typeof m === 'string'))];
  if (modes.length <= 1) {
    const s = oursVsPeers(cases);
    return s ? [oursVsPeersText(s)] : [];
  }
  return modes.flatMap((m) => {
    const s = oursVsPeers(cases.filter((c) => c.params.mode === m));
    return s ? [oursVsPeersText(s, m)] : [];
  });
}
