import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatGenSpec, generateMatrix, parseGenSpec, type GenSpec } from '../src/matrix/generate/index.js';
import { UserError } from '../src/util/errors.js';
import { assertCanonical, hashMatrices, rowCols } from './gen-helpers.js';

test('parseGenSpec parses every kind, with defaults, and round-trips through formatGenSpec', () => {
  const cases: [string, GenSpec][] = [
    ['stencil:dims=3,n=40,points=27', { kind: 'stencil', dims: 3, n: 40, points: 27 }],
    ['stencil:dims=2,n=1000,points=5', { kind: 'stencil', dims: 2, n: 1000, points: 5 }],
    ['rmat:scale=16,ef=8', { kind: 'rmat', scale: 16, ef: 8, a: 0.57, b: 0.19, c: 0.19 }],
    ['rmat:scale=4,ef=2,a=0.25,b=0.25,c=0.25', { kind: 'rmat', scale: 4, ef: 2, a: 0.25, b: 0.25, c: 0.25 }],
    ['uniform:rows=200000,nnz_row=8', { kind: 'uniform', rows: 200000, cols: 200000, nnzRow: 8 }],
    ['uniform: rows=10, cols=20, nnz_row=3', { kind: 'uniform', rows: 10, cols: 20, nnzRow: 3 }],
    ['banded:n=100,bw=2', { kind: 'banded', n: 100, bw: 2 }],
  ];
  for (const [text, spec] of cases) {
    assert.deepEqual(parseGenSpec(text), spec, text);
    assert.deepEqual(parseGenSpec(formatGenSpec(spec)), spec);
  }
});

test('parseGenSpec errors are UserErrors naming the spec and the problem', () => {
  const cases: [string, RegExp][] = [
    ['mesh:n=3', /unknown kind "mesh"; use one of stencil, rmat, uniform, banded/],
    ['', /unknown kind ""/],
    ['stencil:dims=2,n=10', /missing points=/],
    ['stencil:dims=2,n=10,points=7', /points=7 is not a 2-D stencil; use 5 or 9/],
    ['stencil:dims=3,n=10,points=9', /use 7 or 27/],
    ['stencil:dims=4,n=10,points=7', /dims=4 must be from 2 to 3/],
    ['stencil:dims=2,n=0,points=5', /n=0 must be from 1/],
    ['stencil:dims=2,n=-3,points=5', /n=-3 is not a non-negative integer/],
    ['stencil:dims=2,n=1.5,points=5', /not a non-negative integer/],
    ['stencil:dims=2,n=10,points=5,size=3', /unknown key "size" for stencil; keys: dims, n, points/],
    ['stencil:dims=2,n=10,n=11,points=5', /key "n" given twice/],
    ['stencil:dims=2,n,points=5', /"n" is not key=value/],
    ['rmat:scale=10', /missing ef=/],
    ['rmat:scale=31,ef=1', /scale=31 must be from 0 to 30/],
    ['rmat:scale=10,ef=4,a=0.6,b=0.3,c=0.2', /a \+ b \+ c = .* exceeds 1/],
    ['rmat:scale=10,ef=4,a=1.5', /a=1.5 must be a probability/],
    ['rmat:scale=10,ef=4,b=x', /b=x must be a probability/],
    ['uniform:rows=10,nnz_row=11', /nnz_row=11 exceeds cols=10/],
    ['banded:n=10', /missing bw=/],
    // size guard: more than 2^31 - 1 nonzeros
    ['stencil:dims=3,n=1000,points=27', /27,000,000,000 nonzeros, more than the limit of 2\^31-1/],
    ['rmat:scale=30,ef=16', /more than the limit/],
    ['uniform:rows=100000000,nnz_row=100', /more than the limit/],
    ['banded:n=1000000000,bw=10', /more than the limit/],
  ];
  for (const [text, why] of cases) {
    assert.throws(
      () => parseGenSpec(text),
      (e: unknown) => e instanceof UserError && e.message.startsWith(`bad generator spec "${text}": `) && why.test(e.message),
      text,
    );
  }
});

/** Dense view of a small matrix for exact pattern checks. */
function dense(m: ReturnType<typeof generateMatrix>): number[][] {
  const d = Array.from({ length: m.rows }, () => new Array(m.cols).fill(0));
  for (let i = 0; i < m.rows; i++) for (let p = m.rowPtr[i]; p < m.rowPtr[i + 1]; p++) d[i][m.colIdx[p]] = m.values[p];
  return d;
}

test('stencil nnz follows the exact formulas for several n', () => {
  const formulas: [string, (n: number) => number][] = [
    ['dims=2,points=5', (n) => 5 * n * n - 4 * n],
    ['dims=2,points=9', (n) => (3 * n - 2) ** 2],
    ['dims=3,points=7', (n) => 7 * n ** 3 - 6 * n * n],
    ['dims=3,points=27', (n) => (3 * n - 2) ** 3],
  ];
  for (const [kind, nnz] of formulas) {
    for (const n of [1, 2, 3, 7, 12]) {
      const m = generateMatrix(parseGenSpec(`stencil:${kind},n=${n}`), 0);
      assertCanonical(m);
      const dims = kind.includes('dims=3') ? 3 : 2;
      assert.equal(m.rows, n ** dims);
      assert.equal(m.cols, n ** dims);
      assert.equal(m.rowPtr[m.rows], nnz(n), `${kind} n=${n}`);
    }
  }
});

test('stencil row patterns: interior, edge and corner rows, values centre = points-1, neighbours -1', () => {
  const n = 4;
  const five = generateMatrix(parseGenSpec(`stencil:dims=2,n=${n},points=5`), 0);
  const at = (x: number, y: number) => x + n * y;
  assert.deepEqual(rowCols(five, at(1, 1)), [at(1, 0), at(0, 1), at(1, 1), at(2, 1), at(1, 2)]);
  assert.deepEqual(rowCols(five, at(0, 0)), [at(0, 0), at(1, 0), at(0, 1)]);
  assert.deepEqual(rowCols(five, at(3, 2)), [at(3, 1), at(2, 2), at(3, 2), at(3, 3)]);
  const d = dense(five);
  assert.equal(d[at(1, 1)][at(1, 1)], 4);
  assert.equal(d[at(1, 1)][at(2, 1)], -1);
  // the 5-point Laplacian is symmetric
  for (let i = 0; i < five.rows; i++) for (let j = 0; j < five.rows; j++) assert.equal(d[i][j], d[j][i]);

  const nine = generateMatrix(parseGenSpec(`stencil:dims=2,n=${n},points=9`), 0);
  assert.equal(rowCols(nine, at(1, 1)).length, 9);
  assert.deepEqual(rowCols(nine, at(0, 0)), [at(0, 0), at(1, 0), at(0, 1), at(1, 1)]);
  assert.equal(dense(nine)[at(2, 2)][at(2, 2)], 8);

  const seven = generateMatrix(parseGenSpec(`stencil:dims=3,n=${n},points=7`), 0);
  const at3 = (x: number, y: number, z: number) => x + n * y + n * n * z;
  assert.deepEqual(rowCols(seven, at3(1, 2, 1)), [at3(1, 2, 0), at3(1, 1, 1), at3(0, 2, 1), at3(1, 2, 1), at3(2, 2, 1), at3(1, 3, 1), at3(1, 2, 2)]);
  assert.equal(rowCols(seven, at3(0, 0, 0)).length, 4);
  assert.equal(dense(seven)[at3(1, 1, 1)][at3(1, 1, 1)], 6);

  const box = generateMatrix(parseGenSpec(`stencil:dims=3,n=${n},points=27`), 0);
  assert.equal(rowCols(box, at3(1, 1, 1)).length, 27);
  assert.equal(rowCols(box, at3(3, 3, 3)).length, 8);
  assert.equal(rowCols(box, at3(0, 2, 1)).length, 18);
  assert.equal(dense(box)[at3(2, 1, 2)][at3(2, 1, 2)], 26);
});

test('R-MAT: 2^scale square, no duplicate entries, deterministic, skewed towards quadrant a', () => {
  const spec = parseGenSpec('rmat:scale=10,ef=8');
  const m = generateMatrix(spec, 5);
  assert.equal(m.rows, 1024);
  assert.equal(m.cols, 1024);
  assertCanonical(m); // strictly increasing columns: no duplicates
  const nnz = m.rowPtr[m.rows];
  assert.ok(nnz <= 8 * 1024 && nnz > 4 * 1024, `nnz ${nnz} after merging duplicates`);
  for (const v of m.values) assert.ok(v > -1 && v < 1);
  assert.equal(hashMatrices([generateMatrix(spec, 5)]), hashMatrices([m]));
  assert.notEqual(hashMatrices([generateMatrix(spec, 6)]), hashMatrices([m]));
  // with a = 0.57 the top-left quadrant holds far more than a quarter of the entries
  let topLeft = 0;
  for (let i = 0; i < 512; i++) for (let p = m.rowPtr[i]; p < m.rowPtr[i + 1]; p++) if (m.colIdx[p] < 512) topLeft++;
  assert.ok(topLeft / nnz > 0.45, `top-left share ${topLeft / nnz}`);
});

test('R-MAT extremes: a=1 puts every edge at (0, 0); d=1 at (n-1, n-1); scale 0 is 1x1', () => {
  const a1 = generateMatrix(parseGenSpec('rmat:scale=5,ef=3,a=1,b=0,c=0'), 1);
  assert.deepEqual([a1.rowPtr[a1.rows], a1.colIdx[0], a1.rowPtr[1]], [1, 0, 1]);
  const d1 = generateMatrix(parseGenSpec('rmat:scale=5,ef=3,a=0,b=0,c=0'), 1);
  assert.deepEqual([d1.rowPtr[d1.rows], d1.rowPtr[31], d1.colIdx[0]], [1, 0, 31]);
  const b1 = generateMatrix(parseGenSpec('rmat:scale=3,ef=2,a=0,b=1,c=0'), 1);
  assert.deepEqual(rowCols(b1, 0), [7]);
  const tiny = generateMatrix(parseGenSpec('rmat:scale=0,ef=4'), 1);
  assert.deepEqual([tiny.rows, tiny.cols, tiny.rowPtr[1]], [1, 1, 1]);
});

test('uniform: exactly K distinct sorted columns per row, rectangular allowed', () => {
  const m = generateMatrix(parseGenSpec('uniform:rows=300,cols=50,nnz_row=7'), 2);
  assert.deepEqual([m.rows, m.cols, m.rowPtr[m.rows]], [300, 50, 2100]);
  assertCanonical(m);
  for (let i = 0; i < m.rows; i++) assert.equal(m.rowPtr[i + 1] - m.rowPtr[i], 7);
  const full = generateMatrix(parseGenSpec('uniform:rows=3,cols=40,nnz_row=40'), 2);
  for (let i = 0; i < 3; i++) assert.deepEqual(rowCols(full, i), Array.from({ length: 40 }, (_, j) => j));
  // wide rows (k > 16) use a marker array; a column range above 2^26 uses a Set, not 2^26+ markers
  for (const text of ['uniform:rows=20,cols=60,nnz_row=30', 'uniform:rows=3,cols=100000000,nnz_row=20', 'uniform:rows=2,cols=2147483647,nnz_row=3']) {
    const w = generateMatrix(parseGenSpec(text), 2);
    assertCanonical(w);
    for (let i = 0; i < w.rows; i++) assert.equal(w.rowPtr[i + 1] - w.rowPtr[i], Number(/nnz_row=(\d+)/.exec(text)![1]), text);
  }
  const empty = generateMatrix(parseGenSpec('uniform:rows=3,nnz_row=0'), 2);
  assert.deepEqual(Array.from(empty.rowPtr), [0, 0, 0, 0]);
});

test('banded: all and only entries with |i-j| <= bw', () => {
  for (const [n, bw] of [[10, 2], [5, 0], [4, 9], [1, 3]]) {
    const m = generateMatrix(parseGenSpec(`banded:n=${n},bw=${bw}`), 3);
    assertCanonical(m);
    for (let i = 0; i < n; i++) {
      const want = [];
      for (let j = 0; j < n; j++) if (Math.abs(i - j) <= bw) want.push(j);
      assert.deepEqual(rowCols(m, i), want, `n=${n} bw=${bw} row ${i}`);
    }
    for (const v of m.values) assert.ok(v > -1 && v < 1 && v !== 0);
  }
});

test('golden hashes of seeded spec matrices (seed 1) are pinned', () => {
  // Computed once with this implementation; a change means every user's generated data changes.
  const golden: [string, number, string][] = [
    ['rmat:scale=6,ef=4', 187, '9476e9c4649c82e9fcea6790d6752f35c6b4ee405e8e9b27014a4a3a7fced668'],
    ['uniform:rows=40,cols=30,nnz_row=3', 120, '56ee3794b545ddce12fbc12158de8a5253c66326ee93fbb347a665f8ca65a9ba'],
    ['banded:n=20,bw=2', 94, 'f8629e056b51269b1d0b43f581e2da5b28a233332a39cb618665ac1b43004d82'],
  ];
  for (const [text, nnz, hash] of golden) {
    const m = generateMatrix(parseGenSpec(text), 1);
    assert.equal(m.rowPtr[m.rows], nnz, text);
    assert.equal(hashMatrices([m]), hash, text);
    // the spec text works as well as the parsed spec
    assert.equal(hashMatrices([generateMatrix(text, 1)]), hash, text);
  }
});
