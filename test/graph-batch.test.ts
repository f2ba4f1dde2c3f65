// Batches of small graphs (--graph molecule) through the planner, the request schema, suites, `gen` and a
// CPU-backend `spmm` run. The graphs themselves are tested in gen-molecule.test.ts.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { SpmmRequest } from '../src/bench/api.js';
import { SpmmRequestFields, parseCliRequest } from '../src/bench/request-schema.js';
import { checkSpmmFits, meanNnzRow, planSpmm, spmmFootprint } from '../src/bench/spmm-plan.js';
import { readSpb } from '../src/matrix/binary.js';
import { generateBatch } from '../src/matrix/generate/index.js';
import { readMtx } from '../src/matrix/mtx-read.js';
import type { CsrMatrix } from '../src/matrix/types.js';
import { ResultFile } from '../src/results/schema.js';
import { caseCost } from '../src/scale/cost.js';
import { parseSuite } from '../src/suite/load.js';
import { spmmRequest as cliSpmmRequest } from '../src/cli/commands/spmm.js';
import { spbench } from './cli-helpers.js';
import { hashMatrices } from './gen-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'spbench-graph-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const spmm = (over: Partial<SpmmRequest> = {}): SpmmRequest => ({
  batch: [100], dim: ['64'], nnzRow: ['3'], nb: [64], precision: ['f32'], mode: ['kernel'], layout: 'row', methods: 'all',
  seed: 1, warmup: 5, samples: 20, backend: 'cpu', ...over,
});
const molecules = (batch: number, seed: number): CsrMatrix[] => generateBatch({ batch, dim: { min: 9, max: 40 }, graph: 'molecule', seed });
const FAST = ['--backend', 'cpu', '--warmup', '0', '--samples', '3'];

test('planSpmm: a graph batch says its kind in the case id, label and params, never a random batch\'s nnz', () => {
  const runs = planSpmm(spmm({ graph: 'molecule', nnzRow: [], batch: [2000], dim: ['9:40'], nb: [16, 64], mode: ['graph'] }));
  assert.equal(runs.length, 1);
  const [c16, c64] = runs[0].cases;
  assert.equal(c16.id, 'spmm/batch=2000/dim=9:40/graph=molecule/nb=16/f32/graph');
  assert.equal(c64.id, 'spmm/batch=2000/dim=9:40/graph=molecule/nb=64/f32/graph');
  assert.equal(c16.label, 'batch 2000 · dim 9:40 · molecule graphs · nB 16 · f32 · graph');
  assert.deepEqual(c16.params, { batch: 2000, dim: '9:40', graph: 'molecule', nb: 16, precision: 'f32', mode: 'graph', layout: 'row', seed: 1 });
  assert.deepEqual(runs[0].source, { kind: 'generated', batch: 2000, dim: '9:40', graph: 'molecule' });
  // the random batch of the same size is another input and another case
  const random = planSpmm(spmm({ batch: [2000], dim: ['9:40'], nb: [16], mode: ['graph'] }))[0];
  assert.notEqual(random.inputKey, runs[0].inputKey);
  assert.equal(random.cases[0].id, 'spmm/batch=2000/dim=9:40/nnz=3/nb=16/f32/graph');
  // dims sweep; no --nnz-row check applies (a graph of 1 atom is its self-loop)
  assert.equal(planSpmm(spmm({ graph: 'molecule', nnzRow: [], dim: ['1', '2:4', '9:40'] })).length, 3);
});

test('footprint and cost of a graph batch: at most 5 nonzeros a row, about 3.2 for molecules of 9-40 atoms', () => {
  const mats = molecules(2000, 1);
  const rows = mats.reduce((s, m) => s + m.rows, 0);
  const nnz = mats.reduce((s, m) => s + m.rowPtr[m.rows], 0);
  const mean = meanNnzRow({ batch: 2000, dim: '9:40', graph: 'molecule' });
  assert.ok(Math.abs(mean - nnz / rows) < 0.05 * mean, `estimate ${mean} vs generated ${nnz / rows}`);
  assert.ok(mean <= 5 && meanNnzRow({ batch: 1, dim: '1000000', graph: 'molecule' }) <= 5);
  const f = spmmFootprint({ batch: 2000, dim: '9:40', graph: 'molecule' }, [16, 64], 'f32');
  assert.equal(f.rows, 2000 * 24.5);
  assert.ok(Math.abs(f.nnz - nnz) < 0.05 * nnz, `footprint nnz ${f.nnz} vs generated ${nnz}`);
  // a graph batch too large for the machine is refused like a random one
  const [huge] = planSpmm(spmm({ graph: 'molecule', nnzRow: [], batch: [10_000_000], dim: ['1000'], nb: [1024] }));
  assert.throws(() => checkSpmmFits(huge, { total: 256e9, free: 200e9 }, 80e9), /molecule graphs.*too large for this machine/);
  // sharding weighs a graph case by its graphs' rows (a case without nnz/row must not cost nothing)
  const suite = parseSuite({ name: 's', cases: [
    { op: 'spmm', name: 'g', graph: 'molecule', batch: 2000, dim: '9:40', nb: 16, samples: 20 },
    { op: 'spmm', name: 'r', batch: 2000, dim: '9:40', nnzRow: 3, nb: 16, samples: 20 },
  ] }, join(dir, 's.json'));
  const [g, r] = suite.cases.map(caseCost);
  assert.ok(g > 0.9 * (r * mean) / 3 && g < 1.1 * (r * mean) / 3, `cost ${g} vs random ${r}`);
});

test('request schema: --graph is checked, clashes with --nnz-row and --matrices, and leaves nnz/row empty', async () => {
  const req = await cliSpmmRequest({ graph: 'molecule', batch: '2000', dim: '9:40', nb: '16,64', backend: 'cpu' });
  assert.equal(req.graph, 'molecule');
  assert.deepEqual([req.batch, req.dim, req.nnzRow, req.nb], [[2000], ['9:40'], [], [16, 64]]);
  assert.equal((await cliSpmmRequest({ backend: 'cpu' })).graph, undefined);
  const err = (raw: Record<string, unknown>) => {
    try {
      parseCliRequest(SpmmRequestFields, raw);
    } catch (e) {
      return (e as Error).message;
    }
    assert.fail('expected a usage error');
  };
  assert.equal(err({ graph: 'molecule', nnzRow: '3' }), "--nnz-row: cannot be combined with --graph molecule (a graph's rows are its vertices' bonds and self-loop)");
  assert.equal(err({ graph: 'benzene' }), '--graph: unknown graph kind "benzene"; the kinds are: molecule');
  assert.equal(err({ graph: 3 }), '--graph: expected a graph kind (molecule), received number');
  assert.match(err({ graph: 'molecule', matrices: [dir] }), /--matrices: cannot be combined with --graph/);
});

test('suites: "graph" takes a kind; a bad one, or one with nnzRow, is an error naming the case and field', () => {
  const file = join(dir, 'suite.json');
  const suite = (c: Record<string, unknown>, defaults: Record<string, unknown> = {}) =>
    parseSuite({ name: 's', defaults, cases: [{ op: 'spmm', name: 'molecules', batch: 2000, dim: '9:40', nb: [16, 64], ...c }] }, file);
  const [c] = suite({ graph: 'molecule' }, { nnzRow: 3, mode: 'graph' }).cases;
  assert.ok(c.op === 'spmm');
  assert.deepEqual([c.graph, c.nnzRow, c.mode], ['molecule', [], ['graph']], 'a default nnzRow does not apply to a graph case');
  const [r] = suite({ nnzRow: 4 }, { graph: 'molecule' }).cases;
  assert.ok(r.op === 'spmm');
  assert.deepEqual([r.graph, r.nnzRow], [undefined, ['4']], 'nor a default graph to a case with nnzRow');
  assert.throws(() => suite({ graph: 'protein' }), (e: Error) => e.name === 'UserError' && /^invalid suite \S*suite\.json: cases\[0\]\.graph: --graph: unknown graph kind "protein"; the kinds are: molecule$/.test(e.message));
  assert.throws(() => suite({ graph: ['molecule'] }), /cases\[0\]\.graph: --graph: expected a graph kind \(molecule\), received array/);
  assert.throws(() => suite({ graph: 'molecule', nnzRow: 3 }), /cases\[0\]\.nnzRow: --nnz-row: cannot be combined with --graph molecule/);
});

test('spmm-wide has the molecules case (issue 10) and validates', () => {
  const r = spbench(['run', 'reports/suites/spmm-wide.json', '--validate']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /molecules: spmm batch 2000 dim 9:40 molecule graphs n_B 16,64 f32 graph/);
});

test('gen --graph molecule writes a directory of .mtx and a .spb holding the generated graphs', async () => {
  const args = ['gen', '--graph', 'molecule', '--batch', '12', '--dim', '9:40', '--seed', '4'];
  const expected = generateBatch({ batch: 12, dim: { min: 9, max: 40 }, graph: 'molecule', seed: 4 });
  const nnz = expected.reduce((s, m) => s + m.rowPtr[m.rows], 0);
  const d = spbench([...args, '-o', join(dir, 'graphs') + '/']);
  assert.equal(d.code, 0, d.stderr);
  assert.equal(d.stdout, `wrote ${join(dir, 'graphs')}/ (m00.mtx … m11.mtx): 12 molecule graphs, dim 9:40, nnz ${nnz}, seed 4\n`);
  const names = readdirSync(join(dir, 'graphs')).sort();
  assert.equal(names.length, 12);
  const fromMtx = [];
  for (const n of names) fromMtx.push((await readMtx(join(dir, 'graphs', n))).matrix);
  assert.equal(hashMatrices(fromMtx), hashMatrices(expected), 'the .mtx files hold the generated graphs, values exactly');
  assert.match(readFileSync(join(dir, 'graphs', 'm00.mtx'), 'utf8'), /^%%MatrixMarket matrix coordinate real general\n% generated by spbench gen --graph molecule --dim 9:40 --seed 4\n/);
  const s = spbench([...args, '-o', join(dir, 'batch.spb')]);
  assert.equal(s.code, 0, s.stderr);
  assert.equal(hashMatrices((await readSpb(join(dir, 'batch.spb'))).matrices), hashMatrices(expected));
});

test('gen and spmm: --graph with --nnz-row, an unknown kind, or a spec are usage errors (exit 2, one line naming them)', () => {
  const cases: [string[], RegExp][] = [
    [['gen', '--graph', 'molecule', '--nnz-row', '3', '-o', join(dir, 'x.spb')], /^spbench: gen: --nnz-row cannot be combined with --graph molecule/],
    [['gen', '--graph', 'benzene', '-o', join(dir, 'x.spb')], /^spbench: --graph: unknown graph kind "benzene"; the kinds are: molecule\n$/],
    [['gen', 'rmat:scale=4,ef=2', '--graph', 'molecule', '-o', join(dir, 'x.mtx')], /--graph applies to batches only, not to a spec/],
    [['spmm', '--graph', 'molecule', '--nnz-row', '3', ...FAST], /^spbench: --nnz-row: cannot be combined with --graph molecule/],
    [['spmm', '--graph', 'ring', ...FAST], /^spbench: --graph: unknown graph kind "ring"; the kinds are: molecule\n$/],
  ];
  for (const [args, why] of cases) {
    const r = spbench(args);
    assert.equal(r.code, 2, `${args.join(' ')}: exit ${r.code} ${r.stderr}`);
    assert.match(r.stderr, why, args.join(' '));
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
  assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('x.')), [], 'nothing written');
});

test('spmm --graph molecule on the CPU backend: verified cases on the generated graphs, the same input as gen\'s files; compare pairs them', () => {
  const out = join(dir, 'mol.json');
  const r = spbench(['spmm', '--graph', 'molecule', '--batch', '30', '--dim', '9:40', '--nb', '4,16', ...FAST, '--json', out]);
  assert.equal(r.code, 0, r.stderr);
  const file = ResultFile.parse(JSON.parse(readFileSync(out, 'utf8')));
  assert.equal(file.backend, 'cpu');
  assert.deepEqual(file.cases.map((c) => c.id), ['spmm/batch=30/dim=9:40/graph=molecule/nb=4/f32/kernel', 'spmm/batch=30/dim=9:40/graph=molecule/nb=16/f32/kernel']);
  const mats = molecules(30, 1);
  for (const c of file.cases) {
    assert.equal(c.params.graph, 'molecule');
    assert.equal(c.params.nnz_row, undefined);
    assert.match(c.label, /molecule graphs/);
    assert.deepEqual(c.input, { matrices: 30, rows_min: Math.min(...mats.map((m) => m.rows)), rows_max: Math.max(...mats.map((m) => m.rows)), cols_max: Math.max(...mats.map((m) => m.cols)), nnz: mats.reduce((s, m) => s + m.rowPtr[m.rows], 0) });
    assert.deepEqual(c.results.map((m) => m.method).sort(), ['cpu-coo', 'cpu-csr']);
    for (const m of c.results) assert.ok(m.status === 'ok' && m.verify.checked && m.verify.passed, `${c.id} ${m.method} verified`);
  }
  // the same graphs written by gen and read back as --matrices are the same input
  assert.equal(spbench(['gen', '--graph', 'molecule', '--batch', '30', '--dim', '9:40', '-o', join(dir, 'mol30') + '/']).code, 0);
  const files = JSON.parse(spbench(['spmm', '--matrices', join(dir, 'mol30'), '--nb', '4', ...FAST, '--json', '-']).stdout);
  assert.deepEqual(files.cases[0].input, file.cases[0].input);
  const cmp = spbench(['compare', out, out]);
  assert.equal(cmp.code, 0, cmp.stderr);
  assert.match(cmp.stdout, /spmm\/batch=30\/dim=9:40\/graph=molecule\/nb=16\/f32\/kernel/);
});
