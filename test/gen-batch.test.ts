import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateBatch, parseRange } from '../src/matrix/generate/index.js';
import { UserError } from '../src/util/errors.js';
import { assertCanonical, hashMatrices, rowCols } from './gen-helpers.js';

const fixed = (v: number) => ({ min: v, max: v });

test('parseRange: single values, ranges, and errors naming the option and text', () => {
  assert.deepEqual(parseRange('64', '--dim'), { min: 64, max: 64 });
  assert.deepEqual(parseRange(' 32:256 ', '--dim'), { min: 32, max: 256 });
  assert.deepEqual(parseRange('5:5', '--nnz-row'), { min: 5, max: 5 });
  const cases: [string, RegExp][] = [
    ['', /not an integer/],
    ['abc', /not an integer/],
    ['3.5', /not an integer/],
    ['1e3', /not an integer/],
    ['0', /not positive/],
    ['-4', /not positive/],
    ['2:0', /not positive/],
    ['256:32', /min 256 is greater than max 32/],
    ['1:2:3', /more than one/],
    ['4:', /not an integer/],
    ['99999999999999999999', /too large/],
  ];
  for (const [text, why] of cases) {
    assert.throws(
      () => parseRange(text, '--dim'),
      (e: unknown) => e instanceof UserError && e.message.includes('--dim') && e.message.includes(`"${text}"`) && why.test(e.message),
      `parseRange("${text}")`,
    );
  }
});

test('every row has exactly k distinct sorted columns and values in (-1, 1)', () => {
  const mats = generateBatch({ batch: 20, dim: fixed(64), nnzRow: fixed(5), seed: 3 });
  assert.equal(mats.length, 20);
  for (const m of mats) {
    assert.equal(m.rows, 64);
    assert.equal(m.cols, 64);
    assertCanonical(m);
    for (let i = 0; i < m.rows; i++) assert.equal(rowCols(m, i).length, 5);
    for (const v of m.values) assert.ok(v > -1 && v < 1 && v !== 0);
  }
});

test('nnz/row is clamped to dim (dense rows), and dim 1 works', () => {
  const [m] = generateBatch({ batch: 1, dim: fixed(4), nnzRow: fixed(9), seed: 1 });
  for (let i = 0; i < 4; i++) assert.deepEqual(rowCols(m, i), [0, 1, 2, 3]);
  // mixed: the drawn k is clamped per matrix, so rows are dense exactly where k >= dim
  let clamped = 0;
  for (const m of generateBatch({ batch: 40, dim: { min: 2, max: 6 }, nnzRow: { min: 3, max: 8 }, seed: 2 })) {
    assertCanonical(m);
    const k = m.rowPtr[1];
    assert.ok(k >= Math.min(3, m.rows) && k <= Math.min(8, m.rows));
    for (let i = 0; i < m.rows; i++) assert.equal(m.rowPtr[i + 1] - m.rowPtr[i], k);
    if (k === m.rows) clamped++;
  }
  assert.ok(clamped > 0);
  const [one] = generateBatch({ batch: 1, dim: fixed(1), nnzRow: fixed(1), seed: 1 });
  assert.deepEqual([one.rows, one.cols, Array.from(one.rowPtr), Array.from(one.colIdx)], [1, 1, [0, 1], [0]]);
});

test('columns are spread over the whole range (uniform subsets, not a fixed pattern)', () => {
  const [m] = generateBatch({ batch: 1, dim: fixed(50), nnzRow: fixed(2), seed: 9 });
  const counts = new Array(50).fill(0);
  for (const j of m.colIdx) counts[j]++;
  assert.ok(counts.filter((c) => c > 0).length > 30, 'most columns used');
  const big = generateBatch({ batch: 1, dim: fixed(10), nnzRow: fixed(3), seed: 5 })[0];
  const rows = new Set<string>();
  for (let i = 0; i < 10; i++) rows.add(rowCols(big, i).join(','));
  assert.ok(rows.size > 5, 'rows differ from each other');
});

test('mixed batches draw dim and nnz/row per matrix within the ranges', () => {
  const mats = generateBatch({ batch: 200, dim: { min: 32, max: 256 }, nnzRow: { min: 1, max: 5 }, seed: 11 });
  const dims = new Set<number>();
  const ks = new Set<number>();
  for (const m of mats) {
    assert.ok(m.rows >= 32 && m.rows <= 256);
    assert.equal(m.rows, m.cols);
    assertCanonical(m);
    const k = m.rowPtr[1];
    for (let i = 0; i < m.rows; i++) assert.equal(m.rowPtr[i + 1] - m.rowPtr[i], k, 'same k in every row of a matrix');
    dims.add(m.rows);
    ks.add(k);
  }
  assert.ok(dims.size > 50, `dims vary (${dims.size} distinct)`);
  assert.deepEqual([...ks].sort(), [1, 2, 3, 4, 5]);
});

test('determinism: same seed same arrays, other seed differs, matrix i independent of batch size', () => {
  const opts = { dim: { min: 8, max: 40 }, nnzRow: { min: 1, max: 4 } };
  const a = generateBatch({ ...opts, batch: 6, seed: 21 });
  const b = generateBatch({ ...opts, batch: 6, seed: 21 });
  assert.equal(hashMatrices(a), hashMatrices(b));
  const c = generateBatch({ ...opts, batch: 6, seed: 22 });
  assert.notEqual(hashMatrices(a), hashMatrices(c));
  const longer = generateBatch({ ...opts, batch: 10, seed: 21 });
  assert.equal(hashMatrices(longer.slice(0, 6)), hashMatrices(a));
  const one = generateBatch({ ...opts, batch: 1, seed: 21 });
  assert.deepEqual(one[0], a[0]);
});

test('golden hash: the algorithm and its bytes are pinned', () => {
  // Computed once with this implementation; a change means every user's generated data changes.
  const mats = generateBatch({ batch: 5, dim: { min: 16, max: 64 }, nnzRow: { min: 1, max: 5 }, seed: 1 });
  assert.deepEqual(mats.map((m) => [m.rows, m.rowPtr[m.rows]]), GOLDEN_SHAPES);
  assert.equal(hashMatrices(mats), GOLDEN_HASH);
});

const GOLDEN_SHAPES = [
  [16, 64],
  [24, 120],
  [22, 66],
  [62, 62],
  [63, 126],
];
const GOLDEN_HASH = '04a0bdd8e3b641c79e251f62b3d29c288f0693ffd3db324e21aa4f81ab252331';

test('onProgress reports every matrix in order', () => {
  const seen: string[] = [];
  generateBatch({ batch: 3, dim: fixed(4), nnzRow: fixed(1), seed: 1, onProgress: (d, t) => seen.push(`${d}/${t}`) });
  assert.deepEqual(seen, ['1/3', '2/3', '3/3']);
});

test('batch errors are UserErrors', () => {
  assert.throws(() => generateBatch({ batch: 0, dim: fixed(4), nnzRow: fixed(1), seed: 1 }), UserError);
  assert.throws(() => generateBatch({ batch: 1, dim: { min: 5, max: 4 }, nnzRow: fixed(1), seed: 1 }), UserError);
  assert.throws(() => generateBatch({ batch: 1, dim: fixed(4), nnzRow: fixed(1), seed: -1 }), /seed/);
});
