// Random sets of distinct column indices, the building block of the batch and uniform generators.
import type { Rng } from './rng.js';

/**
 * Writes k distinct columns drawn uniformly from [0, n) into out[at .. at+k), sorted ascending.
 * Robert Floyd's algorithm: k draws, no rejection loops, a uniformly random k-subset. Membership
 * is tracked in `mark` (length >= n), stamped with `stamp` so it never needs clearing; the caller
 * passes a new stamp for every call. Requires k <= n.
 */
export function distinctSortedColumns(rng: Rng, n: number, k: number, out: Int32Array, at: number, mark: Int32Array, stamp: number): void {
  let m = 0;
  for (let j = n - k; j < n; j++) {
    const t = rng.below(j + 1);
    const pick = mark[t] === stamp ? j : t;
    mark[pick] = stamp;
    out[at + m++] = pick;
  }
  sortRange(out, at, at + k);
}

/** Sorts out[lo..hi) ascending: insertion sort for the short rows typical here, typed sort otherwise. */
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
