import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { test } from 'node:test';
import type { SpgemmRequest, SpmmRequest } from '../src/bench/api.js';
import type { ProgressEvent as RunProgress } from '../src/progress/event.js';
import type { BenchDeps } from '../src/bench/deps.js';
import type { BenchSink } from '../src/bench/api.js';
import { ResultFile, type CaseResult } from '../src/results/schema.js';
import { runSpmm } from '../src/bench/spmm-run.js';
import { runSpgemm } from '../src/bench/spgemm-run.js';
import { generateBatch, parseGenSpec, parseRange } from '../src/matrix/generate/index.js';
import type { CsrMatrix } from '../src/matrix/types.js';
import type { NativeLine } from '../src/native/protocol.js';
import { RuntimeFailure, UserError } from '../src/util/errors.js';
import { FAILED_VERIFY, resultLine } from './bench-helpers.js';

const ENV: NativeLine = { type: 'env', protocol: 1, backend: 'cpu', executable: '/fake/spbench-cpu', devices: [], threads: 2 };

function square(n: number): CsrMatrix {
  const rowPtr = new Int32Array(n + 1).map((_, i) => i);
  return { rows: n, cols: n, rowPtr, colIdx: new Int32Array(n).map((_, i) => i), values: new Float64Array(n).fill(1) };
}

/** Test double of the other modules; `results` decides what the fake native prints for its args. */
function fakeDeps(opts: { backend?: 'cpu' | 'cuda'; results?: (args: string[]) => NativeLine[] } = {}) {
  const calls = { targets: [] as string[], args: [] as string[][], written: [] as string[], inputsSeen: [] as boolean[] };
  const deps: BenchDeps = {
    chooseBackend: async () => ({ backend: opts.backend ?? 'cpu', reason: 'test double' }),
    ensureExecutable: async (t) => {
      calls.targets.push(t);
      return `/fake/${t}`;
    },
    runNative: async (_exe, args, o) => {
      calls.args.push(args);
      const input = args[args.indexOf(args[0] === 'spmm' ? '--input' : '--a') + 1];
      calls.inputsSeen.push(existsSync(input));
      const nbs = args[0] === 'spmm' ? args[args.indexOf('--nb') + 1].split(',').map(Number) : [0];
      const lines: NativeLine[] = [
        ENV,
        { type: 'progress', done: 1, total: 2, label: 'cpu-csr' },
        ...(opts.results?.(args) ??
          nbs.flatMap((nb) => ['cpu-csr', 'cpu-coo'].map((method) => resultLine({ op: args[0] as 'spmm', method, family: 'reference', timed_region: 'cpu-wall', params: { nb } })))),
        { type: 'done' },
      ];
      for (const l of lines) o.onLine?.(l);
      return lines;
    },
    parseRange,
    generateBatch,
    parseGenSpec,
    generateMatrix: () => square(5),
    loadMatrix: async (p) => (p.includes('rect') ? { ...square(3), cols: 4 } : square(4)),
    loadBatch: async () => ({ matrices: [square(2), square(3)], names: ['a', 'b'] }),
    writeSpb: async (path) => {
      calls.written.push(path);
      await writeFile(path, 'spb');
    },
  };
  return { deps, calls };
}

function recordingSink() {
  const rec = { progress: [] as RunProgress[], cases: [] as CaseResult[], logs: [] as string[] };
  const sink: BenchSink = { progress: (p) => rec.progress.push(p), caseDone: (c) => rec.cases.push(c), log: (m) => rec.logs.push(m) };
  return { sink, rec };
}

const spmmReq = (over: Partial<SpmmRequest> = {}): SpmmRequest => ({
  batch: [4], dim: ['8'], nnzRow: ['3'], nb: [3, 5], precision: ['f32'], mode: ['kernel'], layout: 'row', methods: 'all',
  seed: 1, warmup: 1, samples: 3, backend: 'cpu', ...over,
});

test('runSpmm: one native run per input × precision × mode, cases grouped by n_B, temp inputs removed', async () => {
  const { deps, calls } = fakeDeps();
  const { sink, rec } = recordingSink();
  const file = await runSpmm(spmmReq({ precision: ['f32', 'f64'] }), sink, deps);
  ResultFile.parse(file);
  assert.deepEqual(calls.targets, ['cpu']);
  assert.equal(calls.args.length, 2);
  assert.deepEqual(calls.args[0].slice(0, 1).concat(calls.args[0].slice(3)), [
    'spmm', '--nb', '3,5', '--precision', 'f32', '--methods', 'all', '--mode', 'kernel', '--warmup', '1', '--samples', '3', '--cache', 'hot', '--layout', 'row', '--seed', '1',
  ]);
  assert.deepEqual(calls.inputsSeen, [true, true], 'the .spb input exists while the child runs');
  assert.equal(calls.written.length, 2, 'one .spb per precision');
  assert.ok(calls.written.every((p) => !existsSync(p)), 'temporary inputs are removed afterwards');
  assert.deepEqual(file.cases.map((c) => c.id), [
    'spmm/batch=4/dim=8/nnz=3/nb=3/f32/kernel', 'spmm/batch=4/dim=8/nnz=3/nb=5/f32/kernel',
    'spmm/batch=4/dim=8/nnz=3/nb=3/f64/kernel', 'spmm/batch=4/dim=8/nnz=3/nb=5/f64/kernel',
  ]);
  assert.ok(file.cases.every((c) => c.results.length === 2 && c.results.every((r) => r.family === 'reference' && r.median_ms === 0.01)));
  assert.deepEqual(file.cases[0].input, { matrices: 4, rows_min: 8, rows_max: 8, cols_max: 8, nnz: 96 });
  assert.equal(file.backend, 'cpu');
  assert.equal(file.device, null);
  assert.deepEqual(file.env, ENV);
  assert.equal(rec.cases.length, 4);
  const last = rec.progress.at(-1)!;
  assert.deepEqual([last.done, last.total], [4, 4]);
  assert.ok(rec.progress.some((p) => p.label === 'batch 4 · dim 8 · nnz/row 3 · nB 3,5 · f64 · kernel — cpu-csr (1/2)' && p.done === 2), 'child progress refines the label');
  assert.ok(rec.logs.some((l) => l.includes('backend: cpu (test double)')));
});

test('runSpmm: --matrices loads the files as one batch and records its size', async () => {
  const { deps } = fakeDeps();
  const file = await runSpmm(spmmReq({ matrices: ['/m/dir'], nb: [1] }), recordingSink().sink, deps);
  assert.equal(file.cases[0].id, 'spmm/matrices=dir/nb=1/f32/kernel');
  assert.equal(file.cases[0].params.batch, 2);
  assert.equal(file.cases[0].input.rows_max, 3);
});

test('runSpmm: a failed method keeps its verification detail and gets no speed', async () => {
  const { deps } = fakeDeps({
    results: () => [resultLine({ method: 'bad', status: 'failed', verify: FAILED_VERIFY, params: { nb: 3 } }), resultLine({ method: 'good', params: { nb: 3 } })],
  });
  const file = await runSpmm(spmmReq({ nb: [3] }), recordingSink().sink, deps);
  const bad = file.cases[0].results.find((r) => r.method === 'bad')!;
  assert.equal(bad.status, 'failed');
  assert.equal(bad.gflops, null);
  assert.equal(bad.verify.detail, FAILED_VERIFY.detail);
});

test('runSpmm: results for an unrequested n_B, or none for a requested one, are runtime failures', async () => {
  const extra = fakeDeps({ results: () => [resultLine({ params: { nb: 3 } }), resultLine({ params: { nb: 99 } })] });
  await assert.rejects(runSpmm(spmmReq({ nb: [3] }), recordingSink().sink, extra.deps), (e) => e instanceof RuntimeFailure && /nb=99/.test(e.message));
  const missing = fakeDeps({ results: () => [resultLine({ params: { nb: 3 } })] });
  await assert.rejects(runSpmm(spmmReq({ nb: [3, 5] }), recordingSink().sink, missing.deps), (e) => e instanceof RuntimeFailure && /no result for case .*nb=5/.test(e.message));
  const wrongOp = fakeDeps({ results: () => [resultLine({ op: 'spgemm', params: { nb: 3 } })] });
  await assert.rejects(runSpmm(spmmReq({ nb: [3] }), recordingSink().sink, wrongOp.deps), /spgemm result during a spmm run/);
});

test('runSpmm: the GPU backend needs at least 20 samples and uses the spmm-cuda executable', async () => {
  const few = fakeDeps({ backend: 'cuda' });
  await assert.rejects(runSpmm(spmmReq({ samples: 5 }), recordingSink().sink, few.deps), (e) => e instanceof UserError && e.message === "--samples: '5' is below 20, the minimum on the GPU backend");
  assert.deepEqual(few.calls.targets, [], 'nothing is built before the options are known to be good');
  const ok = fakeDeps({ backend: 'cuda' });
  await runSpmm(spmmReq({ samples: 20 }), recordingSink().sink, ok.deps);
  assert.deepEqual(ok.calls.targets, ['spmm-cuda']);
});

const spgemmReq = (over: Partial<SpgemmRequest> = {}): SpgemmRequest => ({
  inputs: [], gen: ['stencil:dims=2,n=4,points=5'], precision: ['f32'], methods: 'all', seed: 1, warmup: 0, samples: 2, breakdown: true, explain: true, verify: 'full', backend: 'cpu', ...over,
});

test('runSpgemm: one case per input × precision with options passed through', async () => {
  const { deps, calls } = fakeDeps({ results: (args) => [resultLine({ op: 'spgemm', method: 'cpu-gustavson', family: 'reference', params: { precision: args[args.indexOf('--precision') + 1] } })] });
  const file = await runSpgemm(spgemmReq({ precision: ['f32', 'f64'], inputs: ['/m/a.mtx'], gen: [], b: '/m/b.mtx' }), recordingSink().sink, deps);
  assert.deepEqual(file.cases.map((c) => c.id), ['spgemm/a.mtx*b.mtx/f32', 'spgemm/a.mtx*b.mtx/f64']);
  assert.deepEqual(calls.targets, ['cpu']);
  const a = calls.args[0];
  assert.equal(a[0], 'spgemm');
  assert.ok(a.includes('--b') && a.includes('--breakdown') && a.includes('--explain'));
  assert.deepEqual(file.cases[0].input, { source: '/m/a.mtx', a_rows: 4, a_cols: 4, a_nnz: 4, b_source: '/m/b.mtx', b_rows: 4, b_cols: 4, b_nnz: 4 });
});

test('runSpgemm: shapes are checked before running (A·A square, A·B conformant)', async () => {
  const { deps, calls } = fakeDeps();
  await assert.rejects(runSpgemm(spgemmReq({ gen: [], inputs: ['/m/rect.mtx'] }), recordingSink().sink, deps), (e) => e instanceof UserError && /rect\.mtx: A·A needs a square matrix, but it is 3×4/.test(e.message));
  await assert.rejects(runSpgemm(spgemmReq({ gen: [], inputs: ['/m/a.mtx'], b: '/m/rect.mtx' }), recordingSink().sink, deps), (e) => e instanceof UserError && /A·B needs A's columns \(4\) to equal B's rows \(3\)/.test(e.message));
  assert.equal(calls.args.length, 0);
});

test('runSpmm: an impossible or too large request is refused before any work; a large one reports progress while inputs are made', async () => {
  const { deps, calls } = fakeDeps();
  const { sink, rec } = recordingSink();
  await assert.rejects(runSpmm(spmmReq({ dim: ['64'], nnzRow: ['70'] }), sink, deps), (e: Error) => e instanceof UserError && /--nnz-row 70/.test(e.message) && /--dim 64/.test(e.message));
  await assert.rejects(runSpmm(spmmReq({ batch: [10_000_000], dim: ['64'], nb: [1024] }), sink, deps), (e: Error) => e instanceof UserError && /host memory/.test(e.message));
  assert.equal(calls.targets.length, 0, 'nothing was built');
  assert.equal(calls.written.length, 0, 'no input was made');
  await runSpmm(spmmReq({ batch: [20_000], dim: ['4'], nnzRow: ['1'], nb: [2] }), sink, deps);
  const making = rec.progress.filter((p) => /making inputs: \d+\/20000 matrices/.test(p.label));
  assert.ok(making.length >= 50 && making.at(-1)!.label.endsWith('20000/20000 matrices'), `progress while generating: ${making.length}`);
});

test('runSpmm: --explain asks the native run for the planner rule', async () => {
  const { deps, calls } = fakeDeps();
  const { sink } = recordingSink();
  await runSpmm(spmmReq({ explain: true }), sink, deps);
  assert.ok(calls.args[0].includes('--explain'));
  await runSpmm(spmmReq(), sink, deps);
  assert.ok(!calls.args[1].includes('--explain'));
});
