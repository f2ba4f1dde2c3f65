// Web/social-like matrices: out-degrees from a power law, columns with skewed popularity.
//
// Degrees: x_i from a continuous power law of exponent alpha on [1, max] (inverse CDF of one
// uniform draw), then d_i = clip(round(s·x_i), 1, max) with the largest scale s (bisection) whose
// total stays at most floor(avg·rows): the mean is avg up to rounding, never above it, so nnzBound
// is a true bound. Columns: rank r of a Zipf-like law of exponent skew (continuous inverse CDF over
// [1, cols+1)), mapped through a seeded pseudo-random permutation of the columns (KeyedPermutation,
// no table), so a few random columns are hubs. Math.pow/exp/log are V8's fdlibm ports, the same on every platform.
import type { CsrMatrix } from '../types.js';
import { ColumnSampler, RowMarks, rowPtrOf, sortRange } from './columns.js';
import { KeyedPermutation, randomValues, type Rng } from './rng.js';
import type { PowerlawSpec } from './spec.js';

/** Rows this short check for repeats by scanning what was drawn. */
const SCAN_LIMIT = 16;

export function generatePowerlaw(spec: PowerlawSpec, rng: Rng): CsrMatrix {
  const { rows, cols } = spec;
  const degree = powerlawDegrees(spec, rng);
  const rowPtr = rowPtrOf(degree);
  const nnz = rowPtr[rows];
  const colIdx = new Int32Array(nnz);
  const columns = new SkewedColumns(cols, spec.skew, rng);
  for (let i = 0; i < rows; i++) columns.fill(rng, degree[i], colIdx, rowPtr[i]);
  return { rows, cols, rowPtr, colIdx, values: randomValues(rng, nnz) };
}

/** Row lengths in [1, max] with a power-law tail and a total of at most floor(avg·rows). */
export function powerlawDegrees(spec: Pick<PowerlawSpec, 'rows' | 'avg' | 'max' | 'alpha'>, rng: Rng): Int32Array {
  const { rows, avg, max, alpha } = spec;
  const x = new Float64Array(rows);
  const a1 = 1 - alpha;
  if (Math.abs(a1) < 1e-12) {
    const logMax = Math.log(max);
    for (let i = 0; i < rows; i++) x[i] = Math.exp(rng.unit() * logMax);
  } else {
    const span = 1 - Math.pow(max, a1);
    for (let i = 0; i < rows; i++) x[i] = Math.pow(1 - rng.unit() * span, 1 / a1);
  }
  const target = Math.floor(avg * rows);
  const total = (s: number): number => {
    let t = 0;
    for (let i = 0; i < rows; i++) t += Math.min(max, Math.max(1, Math.round(s * x[i])));
    return t;
  };
  // total(0) = rows <= target (avg >= 1); total(max) = rows·max >= target (x >= 1, avg <= max)
  let lo = 0;
  let hi = max;
  for (let it = 0; it < 48 && hi - lo > 1e-12 * hi; it++) {
    const mid = (lo + hi) / 2;
    const t = total(mid);
    if (t <= target) lo = mid;
    else hi = mid;
    if (t === target) break;
  }
  const degree = new Int32Array(rows);
  for (let i = 0; i < rows; i++) degree[i] = Math.min(max, Math.max(1, Math.round(lo * x[i])));
  return degree;
}

/** Distinct columns for a row, drawn with Zipf(skew) popularity over a random order of the columns. */
class SkewedColumns {
  /** rank -> column: which columns are the popular ones */
  private readonly order: KeyedPermutation | null = null;
  private readonly marks = new RowMarks();
  private readonly uniform = new ColumnSampler();
  private readonly a1: number;
  private readonly span: number;
  private readonly logEnd: number;

  constructor(private readonly cols: number, skew: number, rng: Rng) {
    this.a1 = 1 - skew;
    this.span = 1 - Math.pow(cols + 1, this.a1);
    this.logEnd = Math.log(cols + 1);
    if (skew > 0) this.order = new KeyedPermutation(cols, rng);
  }

  /** Popularity rank in [0, cols): 0 is the most popular column. */
  private rank(rng: Rng): number {
    const u = rng.unit();
    const x = Math.abs(this.a1) < 1e-12 ? Math.exp(u * this.logEnd) : Math.pow(1 - u * this.span, 1 / this.a1);
    return Math.min(this.cols - 1, Math.max(0, Math.floor(x) - 1));
  }

  /**
   * out[at .. at+k) = k distinct sorted columns. Repeats are redrawn up to 4k+64 draws; a row
   * still short after that (k near the number of columns the law reaches) takes the most popular
   * columns it does not have yet, so the work stays O(k) whatever k and skew are.
   */
  fill(rng: Rng, k: number, out: Int32Array, at: number): void {
    const order = this.order;
    if (!order) {
      this.uniform.draw(rng, this.cols, k, out, at);
      return;
    }
    let m = 0;
    if (k <= SCAN_LIMIT) {
      // short rows (most of them): look through what was drawn, no table
      const taken = (c: number) => {
        for (let q = at; q < at + m; q++) if (out[q] === c) return true;
        return false;
      };
      for (let tries = 4 * k + 64; m < k && tries > 0; tries--) {
        const c = order.at(this.rank(rng));
        if (!taken(c)) out[at + m++] = c;
      }
      for (let r = 0; m < k; r++) {
        const c = order.at(r);
        if (!taken(c)) out[at + m++] = c;
      }
    } else {
      const marks = this.marks;
      marks.begin(this.cols);
      for (let tries = 4 * k + 64; m < k && tries > 0; tries--) {
        const c = order.at(this.rank(rng));
        if (marks.add(c)) out[at + m++] = c;
      }
      for (let r = 0; m < k; r++) {
        const c = order.at(r);
        if (marks.add(c)) out[at + m++] = c;
      }
    }
    sortRange(out, at, at + k);
  }
}
