// Option validation through the real CLI: exact messages on stderr, exit code 2, nothing on stdout.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { spbench } from './cli-helpers.js';

const cases: [string[], string][] = [
  [['spmm', '--nb', '0'], "--nb: '0' is not a positive integer"],
  [['spmm', '--nb', '16,,32'], "--nb: '16,,32' is not a comma-separated list (empty item)"],
  [['spmm', '--batch', 'many'], "--batch: 'many' is not a positive integer"],
  [['spmm', '--dim', '256:32'], '--dim must be a positive integer or MIN:MAX range, got "256:32" (min 256 is greater than max 32)'],
  [['spmm', '--nnz-row', '0'], '--nnz-row must be a positive integer or MIN:MAX range, got "0" (0 is not positive)'],
  [['spmm', '--precision', 'f8'], "--precision: 'f8' is not one of f32, f64, f16, bf16"],
  [['spmm', '--mode', 'kernel,fast'], "--mode: 'fast' is not one of kernel, e2e, graph"],
  [['spmm', '--layout', 'diag'], "--layout: 'diag' is not one of row, col"],
  [['spmm', '--backend', 'tpu'], "--backend: 'tpu' is not one of auto, cpu, cuda"],
  [['spmm', '--samples', '0'], "--samples: '0' is not auto or an integer in 1..100000"],
  [['spmm', '--warmup', '-1'], "--warmup: '-1' is not a non-negative integer"],
  [['spmm', '--seed', '1.5'], "--seed: '1.5' is not a non-negative integer"],
  [['spmm', '--methods', 'a,b c'], "--methods: 'b c' is not a method name (letters, digits, _ . + -)"],
  [['spmm', '--matrices', 'x.mtx', '--dim', '32'], '--matrices: cannot be combined with --dim (the files are the batch)'],
  [['spmm', '--matrices', '/no/such/graphs'], "--matrices: '/no/such/graphs' does not exist"],
  [['spmm', '--json', '/no/such/dir/out.json'], "--json: directory '/no/such/dir' does not exist"],
  [['spgemm'], 'spgemm: give at least one matrix file or --gen SPEC (e.g. --gen rmat:scale=16,ef=8)'],
  [['spgemm', '/no/such.mtx'], "spgemm: file '/no/such.mtx' does not exist"],
  [['spgemm', '--gen', 'stencil:dims=2,n=8,points=5', '--b', '/no/b.mtx'], "--b: file '/no/b.mtx' does not exist"],
  [['spgemm', '--gen', 'stencil:dims=2,n=8,points=5', '--precision', 'half'], "--precision: 'half' is not one of f32, f64"],
  [['spgemm', '--gen', 'stencil:dims=2,n=8,points=5', '--precision', 'f32,f16'], '--precision f16: spgemm runs f32 and f64 only (f16 and bf16 are for spmm)'],
  [['spgemm', '--gen', 'stencil:dims=2,n=8,points=5', '--precision', 'bf16'], '--precision bf16: spgemm runs f32 and f64 only (f16 and bf16 are for spmm)'],
];

for (const [args, message] of cases) {
  test(`spbench ${args.join(' ')} → exit 2: ${message}`, () => {
    const r = spbench(args);
    assert.equal(r.stderr, `spbench: ${message}\n`);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
  });
}

test("a subcommand's unknown option or missing argument is a usage error (exit 2), as commander words it", () => {
  for (const [args, message] of [
    [['spmm', '--bogus'], "error: unknown option '--bogus'"],
    [['convert', 'only-one.mtx'], "error: missing required argument 'out'"],
  ] as [string[], string][]) {
    const r = spbench(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.ok(r.stderr.startsWith(`${message}\n`), r.stderr);
    assert.equal(r.stdout, '');
  }
});

test('a bad --gen spec is a usage error naming the spec', () => {
  const r = spbench(['spgemm', '--gen', 'nosuch:n=3']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^spbench: .*nosuch/);
});

test('help of spmm and spgemm lists every option with examples', () => {
  const spmm = spbench(['spmm', '--help']);
  assert.equal(spmm.code, 0);
  for (const o of ['--batch', '--dim', '--nnz-row', '--nb', '--matrices', '--precision', '--mode', '--layout', '--methods', '--seed', '--warmup', '--samples', '--backend', '--json', '--quiet', 'Examples:', 'at least 20 on the\n']) {
    assert.ok(spmm.stdout.replace(/\s+/g, ' ').includes(o.trim().replace(/\s+/g, ' ')), `spmm help lacks ${o}`);
  }
  const spgemm = spbench(['spgemm', '--help']);
  assert.equal(spgemm.code, 0);
  for (const o of ['[files...]', '--gen', '--b', '--precision', '--methods', '--samples', '--warmup', '--breakdown', '--explain', '--backend', '--json', 'Examples:']) {
    assert.ok(spgemm.stdout.includes(o), `spgemm help lacks ${o}`);
  }
});

test('spgemm --help gives the generator spec grammar, every class included', () => {
  const r = spbench(['spgemm', '--help']);
  assert.equal(r.code, 0);
  for (const kind of ['stencil:', 'rmat:', 'powerlaw:', 'fem:', 'circuit:', 'longrow:', 'perm:', 'multimodal:', 'irregular:']) assert.ok(r.stdout.includes(kind), kind);
});

test('a reader that closes early (| head) ends spbench quietly, with no internal error', async () => {
  const { spawn } = await import('node:child_process');
  const { fileURLToPath } = await import('node:url');
  const bin = fileURLToPath(new URL('../../bin/spbench.js', import.meta.url));
  // a CSV of the paper grids: far more than a pipe holds, so writes go on after the reader has gone
  const child = spawn(process.execPath, [bin, 'report', 'reports/baselines/h100/paper-spmm.json', '--format', 'csv'], { env: { ...process.env, CI: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  child.stdout.once('data', () => child.stdout.destroy());
  const code = await new Promise<number | null>((res) => child.on('close', (c) => res(c)));
  assert.doesNotMatch(err, /internal error|EPIPE/);
  assert.equal(code, 0);
});

test('a usage error whose reader has gone (`spbench spmm --bogus 2>&1 | head -1`) still exits 2, not 1', async () => {
  const { spawn } = await import('node:child_process');
  const { fileURLToPath } = await import('node:url');
  const bin = fileURLToPath(new URL('../../bin/spbench.js', import.meta.url));
  // stderr closed before the child writes its usage error: every write of it meets EPIPE
  const child = spawn(process.execPath, [bin, 'spmm', '--bogus'], { env: { ...process.env, CI: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr.destroy();
  const code = await new Promise<number | null>((res) => child.on('close', (c) => res(c)));
  assert.equal(code, 2);
});
