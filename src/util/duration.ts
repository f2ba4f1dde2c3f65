// Durations and time-left estimates as people read them in progress lines ("42 s", "3 min 5 s").

/** "42 s", "3 min 5 s", "2 h 7 min"; "?" when unknown. */
export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '?';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min ${s % 60} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** Time left, extrapolated from the fraction of the work done; null before anything is done. */
export function etaMs(elapsedMs: number, fraction: number): number | null {
  if (!(fraction > 0) || fraction > 1) return null;
  return (elapsedMs * (1 - fraction)) / fraction;
}
