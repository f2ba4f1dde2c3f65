// End to end through the real CLI on the CPU backend: generated and file inputs, result files,
// JSON on stdout. Uses the cached spbench-cpu (built on first use).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ResultFile } from '../src/results/schema.js';
import { spbench } from './cli-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'spbench-cli-e2e-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const FAST = ['--backend', 'cpu', '--warmup', '0', '--samples', '3'];

function assertAllVerified(file: ResultFile): void {
  assert.ok(file.cases.length > 0);
  for (const c of file.cases) {
    assert.ok(c.results.length > 0, `${c.id} has results`);
    for (const r of c.results) {
      assert.equal(r.status, 'ok', `${c.id} ${r.method}: ${r.reason ?? r.verify.detail ?? ''}`);
      assert.ok(r.verify.checked && r.verify.passed, `${c.id} ${r.method} verified`);
      assert.equal(r.samples_ms.length, 3);
      assert.ok(r.median_ms !== null && r.timed_region === 'cpu-wall');
    }
  }
}

test('spmm --batch 4 --dim 8 --nb 3,5 --backend cpu --json out.json writes a valid, verified result file', () => {
  const out = join(dir, 'out.json');
  const r = spbench(['spmm', '--batch', '4', '--dim', '8', '--nb', '3,5', ...FAST, '--json', out]);
  assert.equal(r.code, 0, r.stderr);
  const file = ResultFile.parse(JSON.parse(readFileSync(out, 'utf8')));
  assert.equal(file.backend, 'cpu');
  assert.equal(file.device, null);
  assert.equal(file.env?.backend, 'cpu');
  assert.deepEqual(file.command.slice(0, 3), ['spbench', 'spmm', '--batch']);
  assert.deepEqual(file.cases.map((c) => c.id), ['spmm/batch=4/dim=8/nnz=3/nb=3/f32/kernel', 'spmm/batch=4/dim=8/nnz=3/nb=5/f32/kernel']);
  assert.deepEqual(file.cases[0].results.map((r) => r.method).sort(), ['cpu-coo', 'cpu-csr']);
  assertAllVerified(file);
  // plain lines (CI is set): every method, labelled as CPU figures
  assert.match(r.stdout, /CPU backend — not GPU figures/);
  assert.equal(r.stdout.match(/verified ✓/g)?.length, 4);
  assert.ok(!readdirSync(dir).some((f) => f.endsWith('.tmp')), 'no temporary file left next to the output');
});

test('spmm --precision f16,bf16 on the CPU backend: cases of their own, verified with the tolerance of each precision, which the table states', () => {
  const out = join(dir, 'half.json');
  const r = spbench(['spmm', '--batch', '3', '--dim', '5:12', '--nnz-row', '1:3', '--nb', '1,8', '--precision', 'f16,bf16', ...FAST, '--json', out]);
  assert.equal(r.code, 0, r.stderr);
  const file = ResultFile.parse(JSON.parse(readFileSync(out, 'utf8')));
  assert.deepEqual(file.cases.map((c) => c.id), ['spmm/batch=3/dim=5:12/nnz=1:3/nb=1/f16/kernel', 'spmm/batch=3/dim=5:12/nnz=1:3/nb=8/f16/kernel',
    'spmm/batch=3/dim=5:12/nnz=1:3/nb=1/bf16/kernel', 'spmm/batch=3/dim=5:12/nnz=1:3/nb=8/bf16/kernel']);
  assertAllVerified(file);
  for (const c of file.cases) for (const x of c.results) assert.equal(x.verify.tol, c.params.precision === 'f16' ? 1e-3 : 8e-3, `${c.id} ${x.method}`);
  assert.equal(r.stdout.match(/tol 1\.0e-3 \(normalized error\)/g)?.length, 2);
  assert.equal(r.stdout.match(/tol 8\.0e-3 \(normalized error\)/g)?.length, 2);
});

test('spgemm on a generated matrix with --json - prints only the result file', () => {
  const r = spbench(['spgemm', '--gen', 'stencil:dims=2,n=6,points=5', ...FAST, '--precision', 'f32,f64', '--json', '-']);
  assert.equal(r.code, 0, r.stderr);
  const file = ResultFile.parse(JSON.parse(r.stdout));
  assert.deepEqual(file.cases.map((c) => c.id), ['spgemm/stencil:dims=2,n=6,points=5/f32', 'spgemm/stencil:dims=2,n=6,points=5/f64']);
  assert.equal(file.cases[0].results[0].method, 'cpu-gustavson');
  assert.equal(file.cases[0].input.a_rows, 36);
  assertAllVerified(file);
});

test('spgemm --verify: rows:N is recorded and printed; full references are cached and reused by the next run', () => {
  // a seed of its own, so the first full run finds no reference in the (shared) cache
  const seed = String(1000 + Math.floor(Math.random() * 1e9));
  const gen = ['spgemm', '--gen', 'uniform:rows=400,nnz_row=5', '--seed', seed, ...FAST];
  const some = spbench([...gen, '--verify', 'rows:12', '--json', '-']);
  assert.equal(some.code, 0, some.stderr);
  const r1 = ResultFile.parse(JSON.parse(some.stdout)).cases[0].results[0];
  assert.equal(r1.verify.reference, 'cpu-f64 rows:12 (longest and seeded)');
  assert.ok(r1.verify.checked && r1.verify.passed);
  const first = spbench([...gen, '--json', '-']);
  assert.equal(first.code, 0, first.stderr);
  const r2 = ResultFile.parse(JSON.parse(first.stdout)).cases[0].results[0];
  assert.equal(r2.verify.reference, 'cpu-f64');
  assert.equal(r2.info?.reference_cached, undefined, 'the first full run computed the reference');
  const again = spbench([...gen, '--json', '-']);
  const r3 = ResultFile.parse(JSON.parse(again.stdout)).cases[0].results[0];
  assert.equal(r3.info?.reference_cached, 1, 'the second run read the cached reference');
  const plain = spbench([...gen, '--verify', 'rows:12']);
  assert.match(plain.stdout, /verified vs cpu-f64 rows:12 \(longest and seeded\)/);
});

function writeMtx(path: string, rows: number, cols: number, entries: [number, number, number][]): void {
  const body = entries.map(([i, j, v]) => `${i} ${j} ${v}`).join('\n');
  writeFileSync(path, `%%MatrixMarket matrix coordinate real general\n${rows} ${cols} ${entries.length}\n${body}\n`);
}

test('spmm --matrices DIR: a mixed batch with empty rows and an all-zero matrix is verified', () => {
  const batch = join(dir, 'batch');
  mkdirSync(batch);
  writeMtx(join(batch, 'a.mtx'), 5, 5, [[1, 1, 1.5], [1, 5, -2], [4, 2, 0.5]]); // rows 2, 3, 5 empty
  writeMtx(join(batch, 'b.mtx'), 3, 3, []); // nnz 0
  writeMtx(join(batch, 'c.mtx'), 1, 1, [[1, 1, 3]]);
  const r = spbench(['spmm', '--matrices', batch, '--nb', '1,17', ...FAST, '--json', '-']);
  assert.equal(r.code, 0, r.stderr);
  const file = ResultFile.parse(JSON.parse(r.stdout));
  assert.deepEqual(file.cases.map((c) => c.id), ['spmm/matrices=batch/nb=1/f32/kernel', 'spmm/matrices=batch/nb=17/f32/kernel']);
  assert.equal(file.cases[0].params.batch, 3);
  assert.deepEqual(file.cases[0].input, { matrices: 3, rows_min: 1, rows_max: 5, cols_max: 5, nnz: 4 });
  assertAllVerified(file);
});

test('spgemm A·B with --b on rectangular files; a non-conformant pair is a usage error', () => {
  const a = join(dir, 'rect-a.mtx');
  const b = join(dir, 'rect-b.mtx');
  writeMtx(a, 2, 3, [[1, 1, 1], [1, 3, 2], [2, 2, -1]]);
  writeMtx(b, 3, 4, [[1, 4, 1], [2, 1, 2], [3, 4, 3]]);
  const r = spbench(['spgemm', a, '--b', b, ...FAST, '--json', '-']);
  assert.equal(r.code, 0, r.stderr);
  const file = ResultFile.parse(JSON.parse(r.stdout));
  assert.equal(file.cases[0].id, 'spgemm/rect-a.mtx*rect-b.mtx/f32');
  assertAllVerified(file);
  const bad = spbench(['spgemm', b, '--b', a, ...FAST]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /A·B needs A's columns \(4\) to equal B's rows \(2\)/);
  const square = spbench(['spgemm', a, ...FAST]);
  assert.equal(square.code, 2);
  assert.match(square.stderr, /rect-a\.mtx: A·A needs a square matrix, but it is 2×3/);
});

test('spgemm a/m.mtx b/m.mtx: two matrices of one file name give two distinct, correct results', () => {
  mkdirSync(join(dir, 'a'));
  mkdirSync(join(dir, 'b'));
  const a = join(dir, 'a', 'm.mtx');
  const b = join(dir, 'b', 'm.mtx');
  writeMtx(a, 3, 3, [[1, 1, 2], [2, 3, 1], [3, 2, 4]]); // nnz 3
  writeMtx(b, 4, 4, [[1, 2, 1], [2, 1, 1], [3, 4, 2], [4, 4, 3], [4, 1, 5]]); // nnz 5
  const r = spbench(['spgemm', a, b, ...FAST, '--json', '-']);
  assert.equal(r.code, 0, r.stderr);
  const file = ResultFile.parse(JSON.parse(r.stdout));
  assert.deepEqual(file.cases.map((c) => c.id), ['spgemm/a/m.mtx/f32', 'spgemm/b/m.mtx/f32']);
  assert.deepEqual(file.cases.map((c) => [c.input.source, c.input.a_rows, c.input.a_nnz]), [[a, 3, 3], [b, 4, 5]]);
  assert.deepEqual(file.cases.map((c) => c.label), ['a/m.mtx squared · f32', 'b/m.mtx squared · f32']);
  assertAllVerified(file);
  // the same file twice would be two cases with one id: an input error
  const twice = spbench(['spgemm', a, `${dir}/a/../a/m.mtx`, ...FAST]);
  assert.equal(twice.code, 2);
  assert.equal(twice.stderr, `spbench: spgemm: file '${dir}/a/../a/m.mtx' is given twice (each input is one case)\n`);
});

test('spgemm --gen A --gen-b B: a rectangular product of two generated matrices, verified', () => {
  const A = 'uniform:rows=50,cols=30,nnz_row=3';
  const B = 'uniform:rows=30,cols=70,nnz_row=4';
  const r = spbench(['spgemm', '--gen', A, '--gen-b', B, ...FAST, '--json', '-']);
  assert.equal(r.code, 0, r.stderr);
  const file = ResultFile.parse(JSON.parse(r.stdout));
  assert.deepEqual(file.cases.map((c) => c.id), [`spgemm/${A}*${B}/f32`]);
  assert.deepEqual(file.cases[0].input, { source: `gen ${A}`, a_rows: 50, a_cols: 30, a_nnz: 150, b_source: `gen ${B}`, b_rows: 30, b_cols: 70, b_nnz: 120 });
  assertAllVerified(file);
  // the same pair the other way round does not conform
  const bad = spbench(['spgemm', '--gen', B, '--gen-b', A, ...FAST]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^spbench: --gen-b: .*A·B needs A's columns \(70\) to equal B's rows \(50\)/m);
});

test('a method that fails verification shows as FAILED without speed (fault injected into spbench-cpu)', () => {
  const args = ['spmm', '--batch', '3', '--dim', '6', '--nb', '4', ...FAST];
  const plain = spbench(args, { SPBENCH_NATIVE_ARGS: '--inject-fault' });
  assert.equal(plain.code, 0, 'a failed verification is a result, not a crash');
  const failedLine = plain.stdout.split('\n').find((l) => l.includes('cpu-csr'));
  assert.ok(failedLine, plain.stdout);
  assert.match(failedLine, /FAILED/);
  assert.doesNotMatch(failedLine, /µs|GFLOPS|GB\/s/);
  assert.match(plain.stdout, /cpu-coo\s+reference\s+verified ✓\s+median/);
  assert.match(plain.stderr, /spmm\/batch=3\/dim=6\/nnz=3\/nb=4\/f32\/kernel cpu-csr \(failed\)/);
  const json = spbench([...args, '--json', '-'], { SPBENCH_NATIVE_ARGS: '--inject-fault' });
  const r = ResultFile.parse(JSON.parse(json.stdout)).cases[0].results.find((m) => m.method === 'cpu-csr')!;
  assert.equal(r.status, 'failed');
  assert.equal(r.verify.passed, false);
  assert.deepEqual([r.median_ms, r.gflops, r.bandwidth_gbs], [null, null, null]);
});

test('spmm usage errors before any work: --nnz-row above --dim, and a batch that cannot fit (exit 2, bytes named)', () => {
  const a = spbench(['spmm', '--dim', '64', '--nnz-row', '70', ...FAST]);
  assert.equal(a.code, 2, a.stderr);
  assert.match(a.stderr, /--nnz-row 70 with --dim 64/);
  const started = Date.now();
  const b = spbench(['spmm', '--batch', '10000000', '--dim', '64', '--nb', '1024', ...FAST]);
  assert.equal(b.code, 2, b.stderr);
  assert.match(b.stderr, /needs about [\d.]+ TB of host memory \(the machine has [\d.]+ [GT]B, [\d.]+ [GMT]B free\) and at least [\d.]+ TB of device memory/);
  assert.ok(Date.now() - started < 30_000, 'refused at once');
});
