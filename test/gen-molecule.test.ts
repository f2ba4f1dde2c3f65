import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateBatch } from '../src/matrix/generate/index.js';
import type { CsrMatrix } from '../src/matrix/types.js';
import { assertCanonical, hashMatrices, rowCols } from './gen-helpers.js';

const molecules = (batch: number, seed: number, dim = { min: 9, max: 40 }) => generateBatch({ batch, dim, graph: 'molecule', seed });

/** The bonds of a graph matrix: its off-diagonal columns, row by row. */
function bonds(m: CsrMatrix): number[][] {
  return Array.from({ length: m.rows }, (_, i) => rowCols(m, i).filter((j) => j !== i));
}

/** Shortest path from u to v not using the bond u-v (Infinity where that bond is a bridge). */
function detour(adj: number[][], u: number, v: number): number {
  const dist = new Map([[u, 0]]);
  const queue = [u];
  for (let h = 0; h < queue.length; h++) {
    const x = queue[h];
    for (const y of adj[x]) {
      if ((x === u && y === v) || dist.has(y)) continue;
      dist.set(y, dist.get(x)! + 1);
      if (y === v) return dist.get(y)!;
      queue.push(y);
    }
  }
  return Infinity;
}

test('molecule graphs: square, n in --dim, symmetric, self-loops, degree <= 4, connected, GCN-normalised values', () => {
  const dims = new Set<number>();
  for (const m of molecules(300, 5)) {
    assert.equal(m.rows, m.cols);
    assert.ok(m.rows >= 9 && m.rows <= 40, `n ${m.rows} within 9:40`);
    dims.add(m.rows);
    assertCanonical(m);
    const adj = bonds(m);
    const d = (i: number) => m.rowPtr[i + 1] - m.rowPtr[i]; // degree + the self-loop
    for (let i = 0; i < m.rows; i++) {
      assert.ok(rowCols(m, i).includes(i), `self-loop of row ${i}`);
      assert.ok(adj[i].length >= 1 && adj[i].length <= 4, `degree ${adj[i].length} of atom ${i}`);
      for (let p = m.rowPtr[i]; p < m.rowPtr[i + 1]; p++) {
        const j = m.colIdx[p];
        assert.ok(adj[j].includes(i) || j === i, `(${i}, ${j}) without (${j}, ${i})`);
        const at = m.rowPtr[j] + rowCols(m, j).indexOf(i);
        assert.equal(m.values[at], m.values[p], `value (${j}, ${i}) = value (${i}, ${j})`);
        assert.equal(m.values[p], 1 / Math.sqrt(d(i) * d(j)), `value (${i}, ${j}) is 1/sqrt(d_i d_j)`);
        assert.ok(m.values[p] > 0 && m.values[p] <= 1);
      }
    }
    const seen = new Set([0]);
    const queue = [0];
    for (let h = 0; h < queue.length; h++) for (const y of adj[queue[h]]) if (!seen.has(y)) (seen.add(y), queue.push(y));
    assert.equal(seen.size, m.rows, 'connected');
  }
  assert.ok(dims.has(9) && dims.has(40) && dims.size === 32, `every n from 9 to 40 drawn (${dims.size} distinct)`);
});

test('molecule graphs: a tree plus about n/6 ring closures, the smallest ring through any bond of 5 to 7 atoms', () => {
  let rings = 0;
  let wanted = 0;
  let closing = 0;

  for (const m of molecules(500, 8)) {
    const adj = bonds(m);
    const edges = adj.reduce((s, a) => s + a.length, 0) / 2;
    const extra = edges - (m.rows - 1); // a connected graph of n vertices has n-1 bonds beyond its rings
    assert.ok(extra >= 0 && extra <= Math.floor(m.rows / 6), `${extra} ring closures in ${m.rows} atoms`);
    rings += extra;
    wanted += Math.floor(m.rows / 6);
    for (let u = 0; u < m.rows; u++) {
      for (const v of adj[u]) {
        if (v < u) continue;
        const d = detour(adj, u, v);
        if (d === Infinity) continue; // a bond on no ring
        closing++;
        assert.ok(d >= 4 && d <= 6, `bond ${u}-${v}: its smallest ring has ${d + 1} atoms`);
      }
    }
  }
  // draws rarely fail to find a partner: nearly every graph gets its floor(n/6) rings
  assert.ok(rings >= 0.9 * wanted, `${rings} ring closures of ${wanted} wanted`);
  assert.ok(closing > wanted, `${closing} bonds on rings`);
});

test('molecule graphs: the smallest molecules (1 to 4 atoms) are trees with self-loops', () => {
  const mats = molecules(40, 2, { min: 1, max: 4 });
  const [one] = mats.filter((m) => m.rows === 1);
  assert.deepEqual([Array.from(one.rowPtr), Array.from(one.colIdx), Array.from(one.values)], [[0, 1], [0], [1]]);
  const [two] = mats.filter((m) => m.rows === 2);
  assert.deepEqual([Array.from(two.colIdx), Array.from(two.values)], [[0, 1, 0, 1], [0.5, 0.5, 0.5, 0.5]]);
  for (const m of mats) assert.equal(m.rowPtr[m.rows], m.rows + 2 * (m.rows - 1), `n = ${m.rows}: a tree`);
});

test('molecule graphs: same seed same bytes, other seed differs, matrix i independent of batch size; bytes pinned', () => {
  const a = molecules(8, 21);
  assert.equal(hashMatrices(molecules(8, 21)), hashMatrices(a));
  assert.notEqual(hashMatrices(molecules(8, 22)), hashMatrices(a));
  assert.equal(hashMatrices(molecules(20, 21).slice(0, 8)), hashMatrices(a));
  assert.deepEqual(molecules(1, 21)[0], a[0]);
  // the dims are those of a random batch of the same seed (n is matrix i's first draw)
  const random = generateBatch({ batch: 8, dim: { min: 9, max: 40 }, nnzRow: { min: 1, max: 1 }, seed: 21 });
  assert.deepEqual(a.map((m) => m.rows), random.map((m) => m.rows));
  // Computed once with this implementation; a change means every user's molecule batches change.
  const golden = molecules(5, 1);
  assert.deepEqual(golden.map((m) => [m.rows, m.rowPtr[m.rows]]), GOLDEN_SHAPES);
  assert.equal(hashMatrices(golden), GOLDEN_HASH);
});

const GOLDEN_SHAPES = [
  [13, 41],
  [24, 78],
  [40, 130],
  [28, 90],
  [36, 118],
];
const GOLDEN_HASH = '8bf71bd143bdf2cdbd84c915fa66dc58e068956787d58c01b80a62a5bb035dea';
