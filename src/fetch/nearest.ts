// Nearest known names to a mistyped one (edit distance, case-insensitive; a GROUP/NAME candidate
// also matches on its NAME alone).
export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length];
}

/** Up to `k` candidates closest to `word`, nearest first, within a distance that still looks like a typo. */
export function nearest(word: string, candidates: string[], k: number): string[] {
  const w = word.toLowerCase();
  const wName = w.split('/').pop() ?? w;
  const scored = candidates.map((c) => {
    const lc = c.toLowerCase();
    const name = lc.split('/').pop() ?? lc;
    return { c, d: Math.min(editDistance(w, lc), editDistance(wName, name)) };
  });
  const limit = Math.max(2, Math.ceil(wName.length / 2));
  return scored
    .filter((s) => s.d <= limit)
    .sort((a, b) => a.d - b.d || a.c.localeCompare(b.c))
    .slice(0, k)
    .map((s) => s.c);
}
