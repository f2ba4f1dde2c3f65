// Generated structure of the matrix classes: canonical CSR, the row-length distribution each kind
// promises, reproducibility, and nnzBound above the actual nnz.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateMatrix, nnzBound, parseGenSpec } from '../src/matrix/generate/index.js';
import { KeyedPermutation, rngFor } from '../src/matrix/generate/rng.js';
import type { CsrMatrix } from '../src/matrix/types.js';
import { assertCanonical, hashMatrices, rowCols } from './gen-helpers.js';

const lengths = (m: CsrMatrix) => Array.from({ length: m.rows }, (_, i) => m.rowPtr[i + 1] - m.rowPtr[i]);
const nnzOf = (m: CsrMatrix) => m.rowPtr[m.rows];

/** Entries per column. */
function columnCounts(m: CsrMatrix): number[] {
  const c = new Array<number>(m.cols).fill(0);
  for (let p = 0; p < nnzOf(m); p++) c[m.colIdx[p]]++;
  return c;
}

/** Share of the entries held by the `top` most popular columns. */
function topShare(m: CsrMatrix, top: number): number {
  const c = columnCounts(m).sort((a, b) => b - a);
  return c.slice(0, top).reduce((a, b) => a + b, 0) / nnzOf(m);
}

/** Canonical, values in (-1, 1) with 24 significant bits, nnz within nnzBound. */
function checkBasics(text: string, m: CsrMatrix): void {
  assertCanonical(m);
  assert.ok(nnzOf(m) <= nnzBound(parseGenSpec(text)), `${text}: nnz ${nnzOf(m)} above nnzBound`);
  for (const v of m.values) assert.ok(v > -1 && v < 1 && v !== 0 && Number.isInteger(v * 2 ** 24), `${text}: value ${v}`);
}

const SMALL = [
  'powerlaw:rows=3000,avg=6,max=400',
  'powerlaw:rows=500,cols=90,avg=3,max=90,alpha=1,skew=2',
  'fem:dims=3,n=5,block=3',
  'fem:dims=2,n=6,block=2',
  'circuit:rows=2000,nnz_row=3,hubs=4,hub_size=300',
  'longrow:n=300,bw=1,long_rows=2,long_cols=1',
  'longrow:n=300,bw_lo=0,bw_hi=1,long_rows=1',
  'longrow:n=500,long_rows=1,long_cols=1',
  'perm:n=1000',
  'perm:n=100,cols=5000',
  'multimodal:rows=2000,cols=700,lens=2/24/600,weights=60/39/1',
  'irregular:n=3000,min=2,max=11',
];

test('every class: canonical CSR, 24-bit values, nnz <= nnzBound; same seed same arrays, other seed other arrays', () => {
  for (const text of SMALL) {
    const m = generateMatrix(text, 7);
    checkBasics(text, m);
    assert.equal(hashMatrices([generateMatrix(text, 7)]), hashMatrices([m]), text);
    assert.notEqual(hashMatrices([generateMatrix(text, 8)]), hashMatrices([m]), text);
  }
});

test('powerlaw: lengths in [1, max], mean avg (at most), a heavy tail, and hub columns only with skew', () => {
  const text = 'powerlaw:rows=20000,avg=8,max=2000';
  const m = generateMatrix(text, 1);
  checkBasics(text, m);
  const len = lengths(m);
  assert.ok(len.every((l) => l >= 1 && l <= 2000));
  assert.ok(nnzOf(m) <= 8 * 20000 && nnzOf(m) >= 0.99 * 8 * 20000, `nnz ${nnzOf(m)}`);
  const sorted = [...len].sort((a, b) => a - b);
  assert.ok(sorted[10000] <= 4, `median ${sorted[10000]} (most rows short)`);
  assert.ok(sorted[19999] >= 1000, `longest row ${sorted[19999]} (the tail reaches max)`);
  const long = len.filter((l) => l >= 100).length;
  assert.ok(long > 50 && long < 500, `${long} rows of >= 100`);
  // skew=1: the 1 % most popular columns hold ~40 % of the entries; skew=0: ~2 %
  assert.ok(topShare(m, 200) > 0.3, `top 1 % share ${topShare(m, 200)}`);
  const flat = generateMatrix('powerlaw:rows=20000,avg=8,max=2000,skew=0', 1);
  assert.deepEqual(lengths(flat), len, 'skew changes the columns only');
  assert.ok(topShare(flat, 200) < 0.05, `top 1 % share without skew ${topShare(flat, 200)}`);
  // hubs sit at random columns (a seeded permutation), not at the first ones
  const counts = columnCounts(m);
  const hubs = counts.map((c, j) => [c, j]).sort((a, b) => b[0] - a[0]).slice(0, 10).map(([, j]) => j);
  assert.ok(hubs.filter((j) => j < 100).length <= 2, `hub columns ${hubs}`);
});

test('powerlaw: a full-width max still fills every row (popular columns taken once the law runs dry)', () => {
  const text = 'powerlaw:rows=400,cols=60,avg=40,max=60,skew=3';
  const m = generateMatrix(text, 3);
  checkBasics(text, m);
  assert.ok(lengths(m).some((l) => l === 60));
  assert.equal(nnzOf(m), 400 * 40);
});

test('fem: n^dims·B rows, 27·B at interior points, 8·B at corners, dense blocks of neighbour points', () => {
  const n = 5;
  const b = 3;
  const m = generateMatrix(`fem:dims=3,n=${n},block=${b}`, 1);
  assert.deepEqual([m.rows, m.cols, nnzOf(m)], [n ** 3 * b, n ** 3 * b, (3 * n - 2) ** 3 * b * b]);
  const at = (x: number, y: number, z: number) => x + n * y + n * n * z;
  for (let a = 0; a < b; a++) {
    assert.equal(rowCols(m, at(2, 2, 2) * b + a).length, 27 * b);
    assert.equal(rowCols(m, at(1, 3, 2) * b + a).length, 27 * b);
    assert.equal(rowCols(m, at(0, 0, 0) * b + a).length, 8 * b);
    assert.equal(rowCols(m, at(4, 2, 0) * b + a).length, 12 * b);
  }
  // row (0,0,0)·b+a: the blocks of points (0|1, 0|1, 0|1), ascending
  const pts = [at(0, 0, 0), at(1, 0, 0), at(0, 1, 0), at(1, 1, 0), at(0, 0, 1), at(1, 0, 1), at(0, 1, 1), at(1, 1, 1)];
  assert.deepEqual(rowCols(m, 1), pts.flatMap((p) => [p * b, p * b + 1, p * b + 2]));
  const two = generateMatrix('fem:dims=2,n=4,block=2', 1);
  assert.deepEqual([two.rows, nnzOf(two)], [32, 100 * 4]);
  assert.equal(rowCols(two, (1 + 4 * 2) * 2 + 1).length, 18);
  // the pattern is symmetric (the stencil is)
  const set = new Set<string>();
  for (let i = 0; i < m.rows; i++) for (const j of rowCols(m, i)) set.add(`${i},${j}`);
  for (const key of set) assert.ok(set.has(key.split(',').reverse().join(',')), key);
});

test('circuit: diagonal plus K-1 distinct columns a row, H hub rows and H hub columns of >= S entries', () => {
  const [n, k, h, s] = [2000, 3, 4, 300];
  const m = generateMatrix(`circuit:rows=${n},nnz_row=${k},hubs=${h},hub_size=${s}`, 2);
  const len = lengths(m);
  const cols = columnCounts(m);
  for (let i = 0; i < n; i++) {
    assert.ok(rowCols(m, i).includes(i), `diagonal of row ${i}`);
    assert.ok(len[i] >= k, `row ${i} has ${len[i]}`);
  }
  const hubRows = len.map((l, i) => [l, i]).filter(([l]) => l >= s).map(([, i]) => i);
  const hubCols = cols.map((c, j) => [c, j]).filter(([c]) => c >= s).map(([, j]) => j);
  assert.equal(hubRows.length, h);
  assert.deepEqual(hubCols, hubRows, 'a hub net is a row and a column of one node');
  // a row that no net touches has exactly K entries; about half of the extra ones are near the diagonal
  let near = 0;
  let plain = 0;
  for (let i = 0; i < n; i++) {
    if (hubRows.includes(i) || hubRows.some((hub) => rowCols(m, i).includes(hub))) continue;
    assert.equal(len[i], k, `row ${i}`);
    plain++;
    for (const j of rowCols(m, i)) if (j !== i && Math.abs(j - i) <= 12) near++;
  }
  assert.ok(plain > 0.4 * n);
  assert.ok(near >= plain * 0.95 && near <= plain * 1.1, `${near} near entries in ${plain} rows`);
  // hub_size 0 or no hubs: every row exactly K
  const flat = generateMatrix('circuit:rows=50,nnz_row=50,hubs=0,hub_size=0', 2);
  assert.ok(lengths(flat).every((l) => l === 50));
});

test('longrow: K rows of length n, L full columns, every other row exactly its band plus the long columns', () => {
  // text and its band (lo, hi; null: none)
  const cases: [string, { lo: number; hi: number } | null][] = [
    ['longrow:n=300,bw=1,long_rows=2,long_cols=1', { lo: 1, hi: 1 }],
    ['longrow:n=300,bw_lo=0,bw_hi=1,long_rows=1', { lo: 0, hi: 1 }],
    ['longrow:n=40,bw=0,long_rows=3,long_cols=2', { lo: 0, hi: 0 }],
    ['longrow:n=500,long_rows=1,long_cols=1', null],
    ['longrow:n=60,bw_lo=4,bw_hi=2,long_rows=0,long_cols=3', { lo: 4, hi: 2 }],
    ['longrow:n=9,bw=1,long_rows=1,long_cols=9', { lo: 1, hi: 1 }],
  ];
  for (const [text, band] of cases) {
    const m = generateMatrix(text, 4);
    checkBasics(text, m);
    const spec = parseGenSpec(text);
    assert.ok(spec.kind === 'longrow');
    const { n, longRows: k, longCols: l } = spec;
    assert.deepEqual(spec.band, band);
    const len = lengths(m);
    const full = len.map((x, i) => [x, i]).filter(([x]) => x === n).map(([, i]) => i);
    // full columns: the long ones, plus any the band and the long rows happen to fill
    const fullCols = columnCounts(m).map((c, j) => [c, j]).filter(([c]) => c === n).map(([, j]) => j);
    if (l === n) {
      assert.equal(full.length, n, `${text}: every row full`);
      continue;
    }
    assert.equal(full.length, k, `${text}: full rows`);
    if (!band) assert.equal(fullCols.length, l, `${text}: full columns`);
    assert.ok(fullCols.length >= l, `${text}: full columns`);
    let longColsSeen = 0;
    for (let i = 0; i < n; i++) {
      if (full.includes(i)) continue;
      const want = new Set<number>();
      if (band) for (let j = Math.max(0, i - band.lo); j <= Math.min(n - 1, i + band.hi); j++) want.add(j);
      const extra = rowCols(m, i).filter((j) => !want.has(j));
      // what is outside the band must be the long columns, the same in every row
      assert.ok(extra.every((j) => fullCols.includes(j)), `${text}: row ${i} has ${extra}`);
      for (const j of want) assert.ok(rowCols(m, i).includes(j), `${text}: row ${i} misses band column ${j}`);
      longColsSeen = Math.max(longColsSeen, extra.length);
    }
    assert.equal(longColsSeen, l, `${text}: long columns outside the band`);
  }
  // near-empty: one long row and one long column, nothing else: 2n - 1 entries
  const empty = generateMatrix('longrow:n=100000,long_rows=1,long_cols=1', 1);
  assert.equal(nnzOf(empty), 199999);
  assert.equal(lengths(empty).filter((x) => x === 0).length, 0);
  // tridiagonal + one full row: 3n - 2 + n - 3 entries
  const tri = generateMatrix('longrow:n=150000,bw=1,long_rows=1', 1);
  assert.ok(nnzOf(tri) === 3 * 150000 - 2 + 150000 - 3 || nnzOf(tri) === 3 * 150000 - 2 + 150000 - 2);
});

test('perm: exactly one entry a row, distinct columns (all of them when cols = n), rows in random order', () => {
  const m = generateMatrix('perm:n=1000', 5);
  assert.ok(lengths(m).every((l) => l === 1));
  assert.deepEqual([...m.colIdx].sort((a, b) => a - b), Array.from({ length: 1000 }, (_, i) => i));
  let fixed = 0;
  for (let i = 0; i < 1000; i++) if (m.colIdx[i] === i) fixed++;
  assert.ok(fixed < 10, `${fixed} fixed points`);
  const wide = generateMatrix('perm:n=100,cols=5000', 5);
  assert.equal(wide.cols, 5000);
  assert.equal(new Set(wide.colIdx).size, 100);
  assert.ok(Math.max(...wide.colIdx) > 1000, 'columns spread over all of cols');
  assert.ok(lengths(wide).every((l) => l === 1));
});

test('multimodal: every row length is one of lens, in the proportions of the weights', () => {
  const m = generateMatrix('multimodal:rows=20000,cols=700,lens=2/24/600,weights=60/39/1', 6);
  assert.equal(m.cols, 700);
  const count = new Map<number, number>();
  for (const l of lengths(m)) count.set(l, (count.get(l) ?? 0) + 1);
  assert.deepEqual([...count.keys()].sort((a, b) => a - b), [2, 24, 600]);
  const share = (l: number) => (count.get(l) ?? 0) / 20000;
  assert.ok(Math.abs(share(2) - 0.6) < 0.02 && Math.abs(share(24) - 0.39) < 0.02 && Math.abs(share(600) - 0.01) < 0.004, JSON.stringify([...count]));
  const zero = generateMatrix('multimodal:rows=50,lens=0/7,weights=1/0', 6);
  assert.equal(nnzOf(zero), 0);
});

test('irregular: lengths uniform in [min, max], entries near the diagonal but for a share far', () => {
  const [n, lo, hi] = [20000, 2, 11];
  for (const far of [0, 0.05, 1]) {
    const m = generateMatrix(`irregular:n=${n},min=${lo},max=${hi},far=${far}`, 8);
    checkBasics(`irregular:n=${n},min=${lo},max=${hi}`, m);
    const len = lengths(m);
    assert.ok(len.every((l) => l >= lo && l <= hi));
    for (let l = lo; l <= hi; l++) {
      const c = len.filter((x) => x === l).length;
      assert.ok(Math.abs(c / n - 0.1) < 0.015, `length ${l}: ${c}`);
    }
    let away = 0;
    for (let i = 0; i < n; i++) for (const j of rowCols(m, i)) if (Math.abs(j - i) > 4 * hi) away++;
    const share = away / nnzOf(m);
    assert.ok(Math.abs(share - far) < 0.01, `far=${far}: ${share} of the entries are far`);
  }
});

test('golden hashes of the class specs (seed 1) are pinned', () => {
  // Computed once with this implementation; a change means every user's generated data changes.
  const golden: [string, number, string][] = [
    ['powerlaw:rows=50,avg=3,max=20', 150, '78ca86788e3c7ddd8b9c4f846f6768f8e8bfb62fc53e8109383d68d5d17a61ae'],
    ['fem:dims=2,n=3,block=2', 196, '0bf4285a00db91555b17cdd7caa240ecccbf3c2ab90b48e0f8d173de67d2090b'],
    ['circuit:rows=40,nnz_row=3,hubs=2,hub_size=6', 143, '6dad9fd4dc7d165ccfb6be52d192aac261dc53711af6219c9dda28df627f8a0d'],
    ['longrow:n=30,bw=1,long_rows=1,long_cols=1', 141, '073f93297b4c283be9df20d93f721f6ab4563fec75c2f11b395dec8eda68a3c8'],
    ['perm:n=20,cols=25', 20, 'b00fe9dc66f2cb9678f2133a71ef7db6617c8a34869b0001c3724ff33529d712'],
    ['multimodal:rows=30,lens=1/5,weights=2/1', 86, '0eaf47d8e7c9e39c7dda477dd31f7009b2ac76b396d9ac48068251163c0f0559'],
    ['irregular:n=40,min=1,max=4,far=0.2', 99, '4b8333e7a9b804dfe02db565fcd16ada27c6beb932d0e6177a9f066cf498b448'],
  ];
  for (const [text, nnz, hash] of golden) {
    const m = generateMatrix(text, 1);
    assert.equal(nnzOf(m), nnz, text);
    assert.equal(hashMatrices([m]), hash, text);
  }
});

test('KeyedPermutation is a bijection of [0, n) for any n, and differs by seed', () => {
  for (const n of [1, 2, 3, 4, 5, 17, 1000, 4096, 4097, 70001]) {
    const p = new KeyedPermutation(n, rngFor(1, 0));
    const seen = new Uint8Array(n);
    for (let x = 0; x < n; x++) {
      const y = p.at(x);
      assert.ok(Number.isInteger(y) && y >= 0 && y < n, `n=${n}: ${x} -> ${y}`);
      assert.equal(seen[y], 0, `n=${n}: ${y} twice`);
      seen[y] = 1;
    }
  }
  const a = new KeyedPermutation(1000, rngFor(1, 0));
  const b = new KeyedPermutation(1000, rngFor(2, 0));
  const first = (p: KeyedPermutation) => Array.from({ length: 10 }, (_, x) => p.at(x));
  assert.notDeepEqual(first(a), first(b));
  assert.ok(first(a).some((y, x) => y !== x));
  // the widest column range: images stay below 2^31 - 1
  const wide = new KeyedPermutation(2 ** 31 - 1, rngFor(1, 0));
  for (let x = 2 ** 31 - 20; x < 2 ** 31 - 1; x++) assert.ok(wide.at(x) < 2 ** 31 - 1);
  const m = generateMatrix('powerlaw:rows=20,cols=2147483647,avg=3,max=50', 1);
  assertCanonical(m);
});

test('odd sizes: one row, empty rows, rectangular shapes', () => {
  const one = ['powerlaw:rows=1,avg=1,max=1', 'fem:dims=2,n=1,block=1', 'circuit:rows=1,nnz_row=1,hubs=1,hub_size=0', 'longrow:n=1,long_rows=1,long_cols=1', 'longrow:n=1,bw=5,long_rows=0', 'perm:n=1', 'multimodal:rows=1,lens=1,weights=1', 'irregular:n=1,min=1,max=1'];
  for (const text of one) {
    const m = generateMatrix(text, 1);
    checkBasics(text, m);
    assert.deepEqual([m.rows, m.cols, nnzOf(m)], [1, 1, 1], text);
  }
  const empty = generateMatrix('irregular:n=500,min=0,max=2', 1);
  assert.ok(lengths(empty).filter((l) => l === 0).length > 100);
  const shapes: [string, number, number][] = [
    ['powerlaw:rows=300,cols=40,avg=3,max=40', 300, 40],
    ['powerlaw:rows=30,cols=4000,avg=3,max=400,skew=1.5', 30, 4000],
    ['perm:n=30,cols=31', 30, 31],
    ['multimodal:rows=30,cols=5,lens=5/1,weights=1/1', 30, 5],
    ['multimodal:rows=5,cols=3000,lens=600/2,weights=1/1', 5, 3000],
  ];
  for (const [text, rows, cols] of shapes) {
    const m = generateMatrix(text, 2);
    checkBasics(text, m);
    assert.deepEqual([m.rows, m.cols], [rows, cols], text);
  }
});
