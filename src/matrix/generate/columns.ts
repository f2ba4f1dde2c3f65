// Random sets of distinct column indices, the building block of the batch and uniform generators.
import type { Rng } from './rng.js';

/** Widest column range tracked with a marker array (256 MiB); wider ranges use a Set. */
const MARK_LIMIT = 1 << 26;
/** Rows this short check membership by scanning what was drawn: no table at all. */
const SCAN_LIMIT = 16;

/**
 * Draws k distinct columns uniformly from [0, n) with Robert Floyd's algorithm (k draws, no
 * rejection loops, a uniformly random k-subset) and writes them sorted ascending. Membership is a
 * scan for short rows, a marker array stamped per call (never cleared) up to MARK_LIMIT columns,
 * and a Set beyond, so memory never grows with a huge column range.
 */
export class ColumnSampler {
  private mark: Int32Array | null = null;
  private stamp = 0;
  private readonly set = new Set<number>();

  /** out[at .. at+k) = k distinct sorted columns of [0, n); requires k <= n. */
  draw(rng: Rng, n: number, k: number, out: Int32Array, at: number): void {
    if (k <= SCAN_LIMIT) {
      let m = 0;
      for (let j = n - k; j < n; j++) {
        const t = rng.below(j + 1);
        let seen = false;
        for (let q = at; q < at + m; q++) if (out[q] === t) seen = true;
        out[at + m++] = seen ? j : t;
      }
    } else if (n <= MARK_LIMIT) {
      if (!this.mark || this.mark.length < n) this.mark = new Int32Array(n);
      if (this.stamp === 0x7fffffff) {
        this.mark.fill(0);
        this.stamp = 0;
      }
      const mark = this.mark;
      const stamp = ++this.stamp;
      let m = 0;
      for (let j = n - k; j < n; j++) {
        const t = rng.below(j + 1);
        const pick = mark[t] === stamp ? j : t;
        mark[pick] = stamp;
        out[at + m++] = pick;
      }
    } else {
      const set = this.set;
      set.clear();
      let m = 0;
      for (let j = n - k; j < n; j++) {
        const t = rng.below(j + 1);
        const pick = set.has(t) ? j : t;
        set.add(pick);
        out[at + m++] = pick;
      }
    }
    sortRange(out, at, at + k);
  }
}

/** Sorts a[lo..hi) ascending: insertion sort for the short rows typical here, typed sort otherwise. */
function sortRange(a: Int32Array, lo: number, hi: number): void {
  if (hi - lo > 32) {
    a.subarray(lo, hi).sort();
    return;
  }
  for (let i = lo + 1; i < hi; i++) {
    const v = a[i];
    let j = i - 1;
    while (j >= lo && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
}
