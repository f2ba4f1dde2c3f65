import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SpgemmRequest, SpmmRequest } from '../src/bench/api.js';
import { checkSpmmFits, countCases, planSpmm, spmmFootprint } from '../src/bench/spmm-plan.js';
import { planSpgemm } from '../src/bench/spgemm-plan.js';

const spmm = (over: Partial<SpmmRequest> = {}): SpmmRequest => ({
  batch: [100], dim: ['64'], nnzRow: ['3'], nb: [64], precision: ['f32'], mode: ['kernel'], layout: 'row', methods: 'all',
  seed: 1, warmup: 5, samples: 20, backend: 'cpu', ...over,
});

test('planSpmm: sweeps batch × dim × nnzRow × precision × mode, one run per n_B list', () => {
  const runs = planSpmm(spmm({ batch: [50, 100], dim: ['64', '32:256'], nb: [16, 64], precision: ['f32', 'f64'], mode: ['kernel', 'graph'] }));
  assert.equal(runs.length, 2 * 2 * 1 * 2 * 2);
  assert.equal(countCases(runs), 32);
  assert.ok(runs.every((r) => r.nb.join() === '16,64' && r.cases.length === 2));
  assert.equal(runs[0].cases[0].id, 'spmm/batch=50/dim=64/nnz=3/nb=16/f32/kernel');
  assert.equal(runs[0].cases[1].id, 'spmm/batch=50/dim=64/nnz=3/nb=64/f32/kernel');
  assert.equal(runs[1].cases[0].id, 'spmm/batch=50/dim=64/nnz=3/nb=16/f32/graph');
  assert.equal(runs.at(-1)!.cases.at(-1)!.id, 'spmm/batch=100/dim=32:256/nnz=3/nb=64/f64/graph');
  const ids = runs.flatMap((r) => r.cases.map((c) => c.id));
  assert.equal(new Set(ids).size, ids.length, 'case ids are unique');
  // runs of the same input are adjacent, so the runner generates each batch once
  assert.deepEqual([...new Set(runs.map((r) => r.inputKey))].length, 4);
  assert.deepEqual(runs[0].cases[0].params, { batch: 50, dim: '64', nnz_row: '3', nb: 16, precision: 'f32', mode: 'kernel', layout: 'row', seed: 1 });
  assert.equal(runs[0].cases[0].label, 'batch 50 · dim 64 · nnz/row 3 · nB 16 · f32 · kernel');
});

test('planSpmm: ids are stable and only column-major layout shows in them', () => {
  assert.equal(planSpmm(spmm())[0].cases[0].id, planSpmm(spmm({ seed: 7, samples: 50 }))[0].cases[0].id);
  assert.equal(planSpmm(spmm({ layout: 'col' }))[0].cases[0].id, 'spmm/batch=100/dim=64/nnz=3/nb=64/f32/kernel/col');
});

test('planSpmm: --matrices replaces the generated sweep and is named by basenames', () => {
  const runs = planSpmm(spmm({ batch: [1, 2], matrices: ['/data/graphs/', '/x/extra.mtx'], nb: [1, 17] }));
  assert.equal(runs.length, 1);
  assert.deepEqual(runs[0].source, { kind: 'files', paths: ['/data/graphs/', '/x/extra.mtx'] });
  assert.deepEqual(runs[0].cases.map((c) => c.id), ['spmm/matrices=graphs+extra.mtx/nb=1/f32/kernel', 'spmm/matrices=graphs+extra.mtx/nb=17/f32/kernel']);
});

const spgemm = (over: Partial<SpgemmRequest> = {}): SpgemmRequest => ({
  inputs: [], gen: [], precision: ['f32'], methods: 'all', seed: 1, warmup: 2, samples: 10, breakdown: false, explain: false, verify: 'full', backend: 'cpu', ...over,
});

test('planSpgemm: one case per input × precision, files before generated specs', () => {
  const plans = planSpgemm(spgemm({ inputs: ['/m/a.mtx'], gen: ['rmat:scale=4,ef=2'], precision: ['f32', 'f64'] }));
  assert.deepEqual(plans.map((p) => p.id), ['spgemm/a.mtx/f32', 'spgemm/a.mtx/f64', 'spgemm/rmat:scale=4,ef=2/f32', 'spgemm/rmat:scale=4,ef=2/f64']);
  assert.equal(plans[0].label, 'a.mtx squared · f32');
  assert.deepEqual(plans[2].source, { kind: 'gen', spec: 'rmat:scale=4,ef=2' });
});

test('planSpgemm: --b names the product in the id', () => {
  const [p] = planSpgemm(spgemm({ inputs: ['a.mtx'], b: '/y/b.mtx' }));
  assert.equal(p.id, 'spgemm/a.mtx*b.mtx/f32');
  assert.deepEqual(p.b, { kind: 'file', path: '/y/b.mtx' });
  assert.equal(p.params.b, 'b.mtx');
});

test('planSpgemm: files of one name in two folders are told apart by their folders', () => {
  const plans = planSpgemm(spgemm({ inputs: ['/d/a/m.mtx', '/d/b/m.mtx', '/d/c/x.mtx'] }));
  assert.deepEqual(plans.map((p) => p.id), ['spgemm/a/m.mtx/f32', 'spgemm/b/m.mtx/f32', 'spgemm/x.mtx/f32']);
  assert.deepEqual(plans.map((p) => p.source), [{ kind: 'file', path: '/d/a/m.mtx' }, { kind: 'file', path: '/d/b/m.mtx' }, { kind: 'file', path: '/d/c/x.mtx' }]);
  const [ab] = planSpgemm(spgemm({ inputs: ['/d/a/m.mtx'], b: '/d/b/m.mtx' }));
  assert.equal(ab.id, 'spgemm/a/m.mtx*b/m.mtx/f32');
  assert.throws(() => planSpgemm(spgemm({ inputs: ['/d/a/m.mtx', '/d/b/../a/m.mtx'] })), /two cases would have the id spgemm\/m\.mtx\/f32/);
});

test('planSpgemm: --gen-b names a generated second operand', () => {
  const [p] = planSpgemm(spgemm({ gen: ['uniform:rows=5,cols=3,nnz_row=1'], genB: 'uniform:rows=3,cols=7,nnz_row=1' }));
  assert.equal(p.id, 'spgemm/uniform:rows=5,cols=3,nnz_row=1*uniform:rows=3,cols=7,nnz_row=1/f32');
  assert.deepEqual(p.b, { kind: 'gen', spec: 'uniform:rows=3,cols=7,nnz_row=1' });
  assert.throws(() => planSpgemm(spgemm({ gen: ['x'], genB: 'y', b: '/b.mtx' })), /--gen-b: cannot be combined with --b/);
});

test('planSpmm: --matrices of one name in two folders are named with their folders and keyed by path', () => {
  const one = planSpmm(spmm({ matrices: ['/d/a/m.mtx', '/d/b/m.mtx'] }));
  assert.equal(one[0].cases[0].id, 'spmm/matrices=a/m.mtx+b/m.mtx/nb=64/f32/kernel');
  const other = planSpmm(spmm({ matrices: ['/e/a/m.mtx', '/e/b/m.mtx'] }));
  assert.notEqual(one[0].inputKey, other[0].inputKey);
});

test('planSpmm: --nnz-row above --dim is a usage error naming both options (nothing is clamped)', () => {
  assert.throws(() => planSpmm(spmm({ dim: ['64'], nnzRow: ['70'] })), (e: Error) => e.name === 'UserError' && /--nnz-row 70/.test(e.message) && /--dim 64/.test(e.message));
  // a range that can draw more nonzeros than the smallest matrix has columns
  assert.throws(() => planSpmm(spmm({ dim: ['32:256'], nnzRow: ['1:40'] })), /--nnz-row 1:40 with --dim 32:256.*dim 32/);
  assert.equal(planSpmm(spmm({ dim: ['64'], nnzRow: ['64'] })).length, 1, 'a full row is possible');
  assert.equal(planSpmm(spmm({ dim: ['32:256'], nnzRow: ['1:32'] })).length, 1);
  // files are the batch: no generator options to check
  assert.equal(planSpmm(spmm({ matrices: ['/x'], dim: ['4'], nnzRow: ['70'] })).length, 1);
});

test('planSpmm: f16 and bf16 are precisions of their own cases; their footprint counts 2-byte values', () => {
  const runs = planSpmm(spmm({ precision: ['f16', 'bf16', 'f32'], nb: [16, 256] }));
  assert.deepEqual(runs.map((r) => r.precision), ['f16', 'bf16', 'f32']);
  assert.deepEqual(runs[0].cases.map((c) => c.id), ['spmm/batch=100/dim=64/nnz=3/nb=16/f16/kernel', 'spmm/batch=100/dim=64/nnz=3/nb=256/f16/kernel']);
  assert.match(runs[1].label, / · bf16 · /);
  const s = { batch: 1000, dim: '64', nnzRow: '3' };
  const [f16, bf16, f32, f64] = (['f16', 'bf16', 'f32', 'f64'] as const).map((p) => spmmFootprint(s, [256], p));
  // device: nnz (t + 4) + rows·4 + 2·rows·nb·t, so B and C halve from f32 to f16
  const rows = 1000 * 64, nnz = rows * 3;
  assert.equal(f16.deviceBytes, nnz * 6 + rows * 4 + 2 * rows * 256 * 2);
  assert.equal(f32.deviceBytes, nnz * 8 + rows * 4 + 2 * rows * 256 * 4);
  assert.equal(f64.deviceBytes, nnz * 12 + rows * 4 + 2 * rows * 256 * 8);
  assert.deepEqual(bf16, f16);
  assert.ok(f16.hostBytes < f32.hostBytes && f32.hostBytes < f64.hostBytes);
});

test('checkSpmmFits: refuses a run that cannot fit with the bytes it needs and what the machine has', () => {
  const [run] = planSpmm(spmm({ batch: [10_000_000], dim: ['64'], nb: [1024] }));
  const f = spmmFootprint({ batch: 10_000_000, dim: '64', nnzRow: '3' }, [1024], 'f32');
  // B and C alone are 2 × 6.4e8 rows × 1024 × 4 bytes
  assert.ok(f.deviceBytes > 2 * 6.4e8 * 1024 * 4 && f.deviceBytes < 2 * 6.4e8 * 1024 * 4 * 1.01);
  const host = { total: 256e9, free: 200e9 };
  assert.throws(() => checkSpmmFits(run, host, 80e9), (e: Error) => e.name === 'UserError' && /host memory/.test(e.message) && /256\.00 GB/.test(e.message) && /GPU has 80\.00 GB/.test(e.message) && /TB/.test(e.message));
  assert.throws(() => checkSpmmFits(run, host, null), /device memory is not known here/);
  // fits on the host but not on an 80 GB GPU
  const [mid] = planSpmm(spmm({ batch: [200_000], dim: ['64'], nb: [1024] }));
  assert.throws(() => checkSpmmFits(mid, { total: 4e12, free: 4e12 }, 80e9), /at least 10\d\.\d\d GB of device memory/);
  // the paper's case fits anywhere; files are checked by the driver
  assert.equal(checkSpmmFits(planSpmm(spmm())[0], host, 80e9)!.matrices, 100);
  assert.equal(checkSpmmFits(planSpmm(spmm({ matrices: ['/x'] }))[0], host, 1), null);
});
