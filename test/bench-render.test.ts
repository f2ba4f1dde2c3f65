import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderTables } from '../src/report/table.js';
import { renderPlain } from '../src/report/plain.js';
import { orderResults } from '../src/report/present.js';
import { fixtureFile } from './bench-helpers.js';

const order = ['swa-csr-batched', 'cublas-gemm-strided', 'cusparse-spmm-loop', 'swa-csr-broken', 'cusparse-strided'];

/** The row of a method: the line whose first cell is its name. */
function rowIndex(text: string, name: string): number {
  return text.split('\n').findIndex((x) => new RegExp(`^[│ ]\\s*${name}\\s`).test(x));
}

function lineOf(text: string, name: string): string {
  const l = text.split('\n')[rowIndex(text, name)];
  assert.ok(l, `no line for ${name}`);
  return l;
}

test('orderResults: fastest first, then failed, error, not applicable', () => {
  assert.deepEqual(orderResults(fixtureFile().cases[0].results).map((r) => r.method), order);
});

for (const [name, render] of [['table', renderTables], ['plain', renderPlain]] as const) {
  test(`${name}: rows fastest first, failed rows without speed, reasons shown`, () => {
    const text = render(fixtureFile());
    const pos = order.map((m) => rowIndex(text, m));
    assert.ok(pos.every((p, i) => p >= 0 && (i === 0 || p > pos[i - 1])), `order in:\n${text}`);
    const failed = lineOf(text, 'swa-csr-broken');
    assert.match(failed, /FAILED/);
    assert.match(failed, /matrix 3 row 7 column 2/);
    assert.doesNotMatch(failed, /µs|GFLOPS|[0-9]\.[0-9]+×/);
    // 3 µs median of the batched kernel, 2e6 flops / 0.003 ms = 667 GFLOPS, 2× faster than the 6 µs strided bmm
    const fast = lineOf(text, 'swa-csr-batched');
    assert.match(fast, /verified ✓/);
    assert.match(fast, /\b3\b/);
    assert.match(fast, /667/);
    assert.match(fast, /2\.00×/);
    assert.match(lineOf(text, 'cusparse-strided'), /n\/a.*mixed batch: matrices differ in nnz/);
    assert.match(text, /GPU NVIDIA H100 \(cc 9\.0, 132 SMs\) · CUDA 13\.0, driver 13\.0/);
    assert.match(text, /mode kernel \(timed: kernel\)/);
    assert.match(text, /B, C row-major/);
    assert.match(text, /verified vs cpu-f64, tol 1\.0e-4/);
    assert.doesNotMatch(text, /CPU backend/);
  });

  test(`${name}: CPU backend runs are labelled as not GPU figures`, () => {
    const text = render(fixtureFile('cpu'));
    assert.match(text, /CPU backend — not GPU figures \(reference C\+\+, 2 threads\)/);
    assert.doesNotMatch(text, /H100/);
  });
}

test('table: spgemm shows memory relative to the fastest peer and phase breakdowns', () => {
  const file = fixtureFile();
  const c = file.cases[0];
  c.op = 'spgemm';
  c.results = c.results.filter((r) => r.status === 'ok');
  c.results[0].breakdown_ms = { count: 0.25, compute: 1.5 };
  const text = renderTables(file);
  assert.match(text, /mem \/ cublas-gemm-strided/);
  assert.match(text, /phases \(ms\)/);
  assert.match(text, /count 0\.25, compute 1\.5/);
});

test('progress view: cases done/total, current case, elapsed and ETA', async () => {
  const React = await import('react');
  const { renderToString } = await import('ink');
  const { ProgressView } = await import('../src/progress/view.js');
  const text = renderToString(React.createElement(ProgressView, { done: 2, total: 8, label: 'batch 100 · dim 64 · nB 64 · f32 · kernel', elapsedMs: 10_000, logs: ['backend: cpu (requested)'] }));
  assert.match(text, /2\/8 cases · elapsed 10 s · ETA 30 s/);
  assert.match(text, /running batch 100 · dim 64 · nB 64 · f32 · kernel/);
  assert.match(text, /backend: cpu \(requested\)/);
  const start = renderToString(React.createElement(ProgressView, { done: 0, total: 3, label: 'x', elapsedMs: 500, logs: [] }));
  assert.match(start, /0\/3 cases · elapsed 1 s\n/, 'no ETA before the first case ends');
});

test('plain sink: one progress line per case (child progress throttled), ETA, logs, quiet', async () => {
  const { plainSink } = await import('../src/report/plain.js');
  const { PassThrough } = await import('node:stream');
  const collect = (quiet: boolean) => {
    const err = new PassThrough();
    const chunks: string[] = [];
    err.on('data', (d) => chunks.push(String(d)));
    const sink = plainSink({ quiet, err, out: new PassThrough() });
    sink.log('backend: cpu');
    sink.progress({ done: 0, total: 4, label: 'run a', elapsedMs: 0 });
    sink.progress({ done: 0, total: 4, label: 'run a — m1 (1/2)', elapsedMs: 10 });
    sink.progress({ done: 2, total: 4, label: 'run b', elapsedMs: 20_000 });
    sink.progress({ done: 4, total: 4, label: 'run b', elapsedMs: 40_000 });
    return chunks.join('');
  };
  assert.equal(collect(false), 'backend: cpu\n[0/4] run a · elapsed 0 s\n[2/4] run b · elapsed 20 s · ETA 20 s\n');
  assert.equal(collect(true), '');
});

test('auto shows the kernel the planner picked in the table and the plain lines', async () => {
  const { method } = await import('./bench-helpers.js');
  const file = fixtureFile();
  file.cases[0].results.push(method({ method: 'auto', family: 'ours', samples_ms: [0.002, 0.002, 0.002], info: { choice: 'batched-ell', rule: 'row-major, rows of at most 8 nonzeros' } }));
  assert.match(renderTables(file), /auto → batched-ell/);
  assert.match(renderPlain(file), /auto → batched-ell/);
});
