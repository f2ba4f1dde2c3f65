// The one progress event of spbench: what a benchmark run (cases of one request) and a suite run
// (suite cases) report while they work, and its one-line text for logs.
import { etaMs, formatDuration } from '../util/duration.js';

export interface ProgressEvent {
  done: number; // units finished (cases of a run, or suite cases)
  total: number;
  label: string; // what runs now ('' when finished)
  elapsedMs: number;
  /** a suite's name, shown before the label */
  title?: string;
  /** what the current unit is doing (a suite case's own progress label) */
  detail?: string;
  /** time left when the producer knows better than done/total (a suite counts its running case's share) */
  etaMs?: number | null;
}

/** Time left: the event's own estimate, else extrapolated from done/total; null before anything finished. */
export function eventEta(p: ProgressEvent): number | null {
  if (p.etaMs !== undefined) return p.etaMs;
  return p.total > 0 ? etaMs(p.elapsedMs, p.done / p.total) : null;
}

/** "[2/8] demo: small (n_B 64) · elapsed 10 s · ETA 30 s" */
export function progressLine(p: ProgressEvent): string {
  const eta = eventEta(p);
  const what = `${p.title ? `${p.title}: ` : ''}${p.label || 'done'}${p.detail ? ` (${p.detail})` : ''}`;
  return `[${p.done}/${p.total}] ${what} · elapsed ${formatDuration(p.elapsedMs)}${eta === null ? '' : ` · ETA ${formatDuration(eta)}`}`;
}

/**
 * The plain-line progress of both runs: a line when the label changes, and at most one per
 * `everyMs` while it stays; nothing once everything is done.
 */
export function plainProgress(write: (line: string) => void, everyMs: number): (p: ProgressEvent) => void {
  let last = { key: '\u0000', at: -Infinity };
  return (p) => {
    if (p.done >= p.total || !p.label) return;
    const key = String(p.done); // a line per unit started; its own progress at most every everyMs
    if (key === last.key && p.elapsedMs - last.at < everyMs) return;
    last = { key, at: p.elapsedMs };
    write(progressLine(p));
  };
}
