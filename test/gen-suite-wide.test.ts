// reports/suites/spgemm-wide.json: the old six matrices, one of each structure class, and a size
// that keeps the whole suite (its float64 CPU reference runs on every core beside the GPU) inside its 6-minute budget.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { generateMatrix, nnzBound, parseGenSpec } from '../src/matrix/generate/index.js';
import type { CsrMatrix } from '../src/matrix/types.js';
import { loadSuite } from '../src/suite/load.js';
import { REPO } from './report-cli.js';

/** Intermediate products of A·A: the sum over entries a_ik of nnz(row k). */
function products(m: CsrMatrix): number {
  let p = 0;
  for (let e = 0; e < m.rowPtr[m.rows]; e++) {
    const k = m.colIdx[e];
    p += m.rowPtr[k + 1] - m.rowPtr[k];
  }
  return p;
}

test('spgemm-wide: the six of spgemm.json plus every class, f32 and f64, one matrix a case', async () => {
  const wide = await loadSuite(join(REPO, 'reports', 'suites', 'spgemm-wide.json'));
  const old = await loadSuite(join(REPO, 'reports', 'suites', 'spgemm.json'));
  const gens = (s: typeof wide) => s.cases.flatMap((c) => (c.op === 'spgemm' ? c.gen ?? [] : []));
  assert.ok(wide.cases.length >= 14);
  assert.equal(gens(wide).length, wide.cases.length, 'one generated matrix a case');
  for (const g of gens(old)) assert.ok(gens(wide).includes(g), `old matrix ${g}`);
  const kinds = new Set<string>(gens(wide).map((g) => parseGenSpec(g).kind));
  for (const k of ['powerlaw', 'fem', 'circuit', 'longrow', 'perm', 'multimodal', 'irregular']) assert.ok(kinds.has(k), k);
  for (const c of wide.cases) {
    assert.deepEqual(c.precision, ['f32', 'f64'], c.name);
    assert.deepEqual([c.methods, c.seed, c.warmup, c.samples], ['all', 1, 3, 20], c.name);
  }
  // the long-row instances are there as named
  for (const g of ['longrow:n=150000,bw=1,long_rows=1', 'longrow:n=1100000,bw_lo=0,bw_hi=1,long_rows=1', 'longrow:n=100000,long_rows=1,long_cols=1', 'perm:n=3000000']) {
    assert.ok(gens(wide).includes(g), g);
  }
});

test('spgemm-wide: the new matrices stay within ~400 M products each and the suite within 1.5 G', async () => {
  const wide = await loadSuite(join(REPO, 'reports', 'suites', 'spgemm-wide.json'));
  const old = new Set((await loadSuite(join(REPO, 'reports', 'suites', 'spgemm.json'))).cases.flatMap((c) => (c.op === 'spgemm' ? c.gen ?? [] : [])));
  let total = 0;
  for (const c of wide.cases) {
    if (c.op !== 'spgemm') continue;
    for (const g of c.gen ?? []) {
      const m = generateMatrix(g, c.seed);
      assert.ok(m.rowPtr[m.rows] <= nnzBound(parseGenSpec(g)), g);
      const p = products(m);
      if (!old.has(g)) assert.ok(p <= 400e6, `${c.name}: ${p} products`);
      total += p;
    }
  }
  assert.ok(total <= 1.5e9, `${total} products in all`);
});
