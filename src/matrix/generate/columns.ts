// Random sets of distinct column indices, the building blocks of the row-by-row generators.
import type { Rng } from './rng.js';

/** Widest column range tracked with a marker array (256 MiB); wider ranges use a Set. */
const MARK_LIMIT = 1 << 26;
/** Rows this short check membership by scanning what was drawn: no table at all. */
const SCAN_LIMIT = 16;

/**
 * The set of columns taken in the current row: a marker array stamped per row (never cleared) for
 * column ranges up to MARK_LIMIT, a Set beyond, so memory never grows with a huge column range.
 */
export class RowMarks {
  private mark: Int32Array | null = null;
  private stamp = 0;
  private readonly set = new Set<number>();
  private useSet = false;

  /** Starts a new, empty row over columns [0, n). */
  begin(n: number): void {
    this.useSet = n > MARK_LIMIT;
    if (this.useSet) {
      this.set.clear();
      return;
    }
    if (!this.mark || this.mark.length < n) this.mark = new Int32Array(n);
    if (this.stamp === 0x7fffffff) {
      this.mark.fill(0);
      this.stamp = 0;
    }
    this.stamp++;
  }

  has(c: number): boolean {
    return this.useSet ? this.set.has(c) : (this.mark as Int32Array)[c] === this.stamp;
  }

  /** Adds c; false if the row already had it. */
  add(c: number): boolean {
    if (this.has(c)) return false;
    if (this.useSet) this.set.add(c);
    else (this.mark as Int32Array)[c] = this.stamp;
    return true;
  }
}

/**
 * Draws k distinct columns uniformly from [0, n) with Robert Floyd's algorithm (k draws, no
 * rejection loops, a uniformly random k-subset) and writes them sorted ascending. Membership is a
 * scan for short rows and RowMarks otherwise.
 */
export class ColumnSampler {
  private readonly marks = new RowMarks();

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
    } else {
      const marks = this.marks;
      marks.begin(n);
      let m = 0;
      for (let j = n - k; j < n; j++) {
        const t = rng.below(j + 1);
        const pick = marks.has(t) ? j : t;
        marks.add(pick);
        out[at + m++] = pick;
      }
    }
    sortRange(out, at, at + k);
  }
}

/**
 * Fills out[at .. at+k) with k distinct columns of [0, n) from draw(m) (a column in [0, n), any
 * distribution; m = how many are taken so far), redrawing repeats; sorted ascending. Rejection with
 * no fallback: callers guarantee that draw(m) reaches enough columns to fill the row.
 */
export function drawDistinct(marks: RowMarks, n: number, k: number, draw: (m: number) => number, out: Int32Array, at: number): void {
  marks.begin(n);
  for (let m = 0; m < k; ) {
    const c = draw(m);
    if (marks.add(c)) out[at + m++] = c;
  }
  sortRange(out, at, at + k);
}

/** Row pointers from row lengths (the caller keeps the total within int32, via nnzBound). */
export function rowPtrOf(lengths: Int32Array): Int32Array {
  const rowPtr = new Int32Array(lengths.length + 1);
  for (let i = 0; i < lengths.length; i++) rowPtr[i + 1] = rowPtr[i] + lengths[i];
  return rowPtr;
}

/** Sorts a[lo..hi) ascending: insertion sort for the short rows typical here, typed sort otherwise. */
export function sortRange(a: Int32Array, lo: number, hi: number): void {
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
