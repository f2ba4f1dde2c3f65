// The Python runner (cuda/python/pyrun.py): its numpy-only unit tests, method selection, the framework
// peers and --kernel FILE.py through runSpmm with the real runner where python3 and numpy exist (this
// machine has no torch: the not-applicable reasons), and its lines against the native protocol schema.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import type { SpmmRequest } from '../src/bench/api.js';
import { realDeps, type BenchDeps } from '../src/bench/deps.js';
import { runSpmm } from '../src/bench/spmm-run.js';
import { parseNativeLine, type NativeLine } from '../src/native/protocol.js';
import { runNative } from '../src/native/runner.js';
import { parsePythonManifest, readManifest } from '../src/plugins/manifest.js';
import { FRAMEWORK_PEERS, pythonUnavailable, runnerArgs, runnerPath, splitMethods } from '../src/plugins/python.js';
import { buildPluginFiles } from '../src/plugins/cli.js';
import { preparePlugins } from '../src/plugins/run.js';
import type { ResultFile } from '../src/results/schema.js';
import { UserError } from '../src/util/errors.js';
import { resultLine } from './bench-helpers.js';
import { tempDir, writeScript } from './native-fixtures.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EXAMPLE = join(ROOT, 'examples/plugins/gather_spmm.py');
const noPython = pythonUnavailable();
const hasTorch = !noPython && spawnSync('python3', ['-c', 'import torch'], { encoding: 'utf8' }).status === 0;
const skipPy = noPython ? `python3 with numpy is needed (${noPython})` : false;
const skipNoTorch = skipPy || (hasTorch ? 'torch is installed here: the not-applicable path is not reachable' : false);

test('the runner\'s numpy-only unit tests (test/python/test_pyrun.py) pass', { skip: skipPy }, () => {
  const r = spawnSync('python3', [join(ROOT, 'test/python/test_pyrun.py')], { encoding: 'utf8', timeout: 300_000 });
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  assert.match(r.stderr, /^OK/m);
});

test('method selection: all takes the framework peers on the CUDA backend only; named peers go to the runner', () => {
  assert.deepEqual(splitMethods('all', 'cuda'), { native: 'all', peers: [...FRAMEWORK_PEERS] });
  assert.deepEqual(splitMethods('all', 'cpu'), { native: 'all', peers: [] });
  assert.deepEqual(splitMethods(['swa-csr', 'torch-blockdiag'], 'cuda'), { native: ['swa-csr'], peers: ['torch-blockdiag'] });
  assert.deepEqual(splitMethods(['torch-sparse-loop'], 'cpu'), { native: null, peers: ['torch-sparse-loop'] });
  const args = ['spmm', '--input', 'x.spb', '--nb', '16', '--methods', 'all', '--mode', 'graph', '--explain', '--seed', '3'];
  assert.deepEqual(runnerArgs(args), [runnerPath(), 'spmm', '--input', 'x.spb', '--nb', '16', '--mode', 'graph', '--seed', '3']);
});

test('manifest: a .py plugin\'s MANIFEST dict (True/False, comments, trailing comma) and its errors', () => {
  const m = readManifest(EXAMPLE);
  assert.deepEqual([m.op, m.name, m.op === 'spmm' && m.graph, m.op === 'spmm' && m.layouts], ['spmm', 'torch-gather', true, ['row']]);
  const src = (body: string) => `import torch\n\n${body}\n\ndef spmm(batch, B, C):\n    pass\n`;
  const ok = parsePythonManifest(src('MANIFEST = {\n  "name": "x",  # a comment with } and "\n  "op": "spmm", "formats": ["csr"], "layouts": ["row", "col"],\n  "precisions": ["f64"], "mixed": False, "graph": True,\n}'), 'p.py');
  assert.deepEqual(ok.op === 'spmm' && [ok.mixed, ok.graph, ok.layouts], [false, true, ['row', 'col']]);
  const err = (body: string) => assert.throws(() => parsePythonManifest(src(body), 'd/p.py'), (e) => e instanceof UserError && /^--kernel d\/p\.py/.test(e.message)) as unknown;
  assert.throws(() => parsePythonManifest(src('X = 1'), 'p.py'), /no manifest found: define MANIFEST = \{\.\.\.\}/);
  assert.throws(() => parsePythonManifest(src('MANIFEST = {"name": "x", "op": "spmm", "formats": ["coo"], "layouts": ["row"], "precisions": ["f32"], "mixed": True, "graph": True}'), 'p.py'), /p\.py:3: field "formats": Python plugins get the batch as CSR only/);
  assert.throws(() => parsePythonManifest(src('MANIFEST = {"name": "x", "op": "spgemm", "precisions": ["f32"]}'), 'p.py'), /Python plugins are SpMM only/);
  assert.throws(() => parsePythonManifest(src("MANIFEST = {'name': 'x'}"), 'p.py'), /p\.py:3: the MANIFEST is not JSON-like/);
  assert.throws(() => parsePythonManifest(src('MANIFEST = {"name": "x", "op": "spmm"}'), 'p.py'), /p\.py:3: field "precisions"/);
  err('MANIFEST = {"name": "x"');
});

test('--kernel FILE.py: nothing is compiled, in a run or by spbench build', async () => {
  const built = await preparePlugins([EXAMPLE], 'spmm', 'cuda', async () => assert.fail('a Python plugin is not compiled'), () => {});
  assert.deepEqual(built.map((p) => [p.manifest.name, p.exe]), [['torch-gather', null]]);
  const b = await buildPluginFiles([EXAMPLE], { cacheDir: tempDir('pyrun-build'), arch: '90' });
  assert.deepEqual(b, [{ method: 'torch-gather', path: `${runnerPath()} runs it (a Python plugin: nothing to compile)` }]);
});

// ---- runSpmm on a (pretend) CUDA backend: the native driver is a double, the Python runner is real ----

const spmmReq = (over: Partial<SpmmRequest>): SpmmRequest => ({
  batch: [4], dim: ['6:9'], nnzRow: ['1:3'], nb: [4, 8], precision: ['f32'], mode: ['graph'], layout: 'row', methods: 'all', seed: 1, warmup: 1, samples: 20, backend: 'auto', ...over,
});

const gpu = (index: number, name: string) => ({
  index, name, cc: '9.0', sms: 132, smem_per_block: 49152, smem_per_block_optin: 232448, smem_per_sm: 233472, max_threads_per_sm: 2048, max_blocks_per_sm: 32, global_mem_bytes: 8e10, l2_bytes: 5e7,
});

async function cudaDeps(seen: Array<{ exe: string; args: string[] }>, built: string[] = []): Promise<BenchDeps> {
  const real = await realDeps();
  return {
    ...real,
    chooseBackend: async () => ({ backend: 'cuda', reason: 'test double' }),
    ensureExecutable: async (t) => {
      built.push(t);
      return '/fake/spbench-spmm-cuda';
    },
    probeEnv: async () => ({ type: 'env', protocol: 1, backend: 'cuda', executable: 'spbench-probe', devices: [gpu(0, 'GPU A'), gpu(1, 'GPU B')] }),
    runNative: async (exe, args, o) => {
      seen.push({ exe, args });
      if (exe !== '/fake/spbench-spmm-cuda') return runNative(exe, args, o); // the Python runner, for real
      const nbs = args[args.indexOf('--nb') + 1].split(',').map(Number);
      const lines: NativeLine[] = [
        { type: 'env', protocol: 1, backend: 'cuda', executable: 'x', devices: [] },
        ...nbs.map((nb) => resultLine({ method: 'swa-csr', params: { nb }, samples_ms: Array(20).fill(0.01) })),
        { type: 'done' },
      ];
      for (const l of lines) o.onLine?.(l);
      return lines;
    },
  };
}

const rows = (f: ResultFile) => f.cases.flatMap((c) => c.results.map((r) => [c.params.nb, r.method, r.family, r.status, r.reason ?? ''] as const));

test('runSpmm: framework peers and a .py plugin run through the runner; without torch they are not applicable with the reason', { skip: skipNoTorch }, async () => {
  const seen: Array<{ exe: string; args: string[] }> = [];
  const file = await runSpmm(spmmReq({ kernels: [EXAMPLE] }), { progress: () => {}, caseDone: () => {}, log: () => {} }, await cudaDeps(seen));
  const got = rows(file);
  assert.deepEqual(got.map((r) => [r[0], r[1], r[2], r[3]]), [4, 8].flatMap((nb) => [
    [nb, 'swa-csr', 'ours', 'ok'], ...FRAMEWORK_PEERS.map((m) => [nb, m, 'peer', 'not_applicable']), [nb, 'torch-gather', 'user', 'not_applicable'],
  ]));
  for (const r of got.filter((x) => x[1] !== 'swa-csr')) assert.match(r[4], /^PyTorch is not importable here \(python3 -c "import torch": ModuleNotFoundError/);
  const py = seen.filter((s) => s.exe === 'python3');
  assert.equal(py.length, 2, 'one runner process for the peers, one for the plugin');
  assert.deepEqual(py[0].args.slice(0, 2), [runnerPath(), 'spmm']);
  assert.equal(py[0].args[py[0].args.indexOf('--methods') + 1], FRAMEWORK_PEERS.join(','));
  assert.deepEqual(py[1].args.slice(-4), ['--plugin', EXAMPLE, '--name', 'torch-gather']);
  assert.ok(!py[1].args.includes('--methods'));
  const nat = seen.find((s) => s.exe !== 'python3')!;
  assert.equal(nat.args[nat.args.indexOf('--methods') + 1], 'all', 'the native driver never sees a framework peer');
});

test('runSpmm: only framework peers named: no native run; the layout and mixed rules of the .py manifest apply first', { skip: skipPy }, async () => {
  const seen: Array<{ exe: string; args: string[] }> = [];
  const built: string[] = [];
  const file = await runSpmm(spmmReq({ methods: ['torch-blockdiag'], layout: 'col', kernels: [EXAMPLE], nb: [4], device: 1 }), { progress: () => {}, caseDone: () => {}, log: () => {} }, await cudaDeps(seen, built));
  assert.ok(seen.every((s) => s.exe === 'python3'), 'the native driver is not run');
  assert.deepEqual(built, [], 'nor built');
  assert.equal(file.device?.name, 'GPU B', 'the device comes from the probe, the one asked for with --device');
  const got = rows(file);
  assert.deepEqual(got.map((r) => r[1]), ['torch-blockdiag', 'torch-gather']);
  assert.match(got[1][4], /the plugin declares layouts row; this case is col-major/);
  assert.equal(seen.length, 1, 'a plugin that does not apply is not started');
});

test('runSpmm: no Python, or a runner that hangs: not applicable, or an error after SPBENCH_KERNEL_TIMEOUT, never a crash', async () => {
  const dir = tempDir('pyrun');
  const keep = { py: process.env.SPBENCH_PYTHON, t: process.env.SPBENCH_KERNEL_TIMEOUT };
  try {
    process.env.SPBENCH_PYTHON = join(dir, 'no-such-python');
    const a = rows(await runSpmm(spmmReq({ methods: ['swa-csr', 'torch-sparse-loop'], nb: [4] }), { progress: () => {}, caseDone: () => {}, log: () => {} }, await cudaDeps([])));
    assert.deepEqual(a.map((r) => [r[1], r[3]]), [['swa-csr', 'ok'], ['torch-sparse-loop', 'not_applicable']]);
    assert.match(a[1][4], /no-such-python was not found \(ENOENT; SPBENCH_PYTHON names another Python\)/);
    // a "python" that answers the numpy probe, then hangs as a runner
    process.env.SPBENCH_PYTHON = writeScript(dir, 'slow-python', '#!/bin/sh\ncase "$2" in "import numpy") exit 0;; esac\nexec sleep 30\n');
    process.env.SPBENCH_KERNEL_TIMEOUT = '1';
    const b = rows(await runSpmm(spmmReq({ methods: ['torch-blockdiag'], kernels: [EXAMPLE], nb: [4] }), { progress: () => {}, caseDone: () => {}, log: () => {} }, await cudaDeps([])));
    assert.deepEqual(b.map((r) => [r[1], r[2], r[3]]), [['torch-blockdiag', 'peer', 'error'], ['torch-gather', 'user', 'error']]);
    for (const r of b) assert.match(r[4], /process ended before reporting this case: .*did not finish within 1\.0 s and was stopped.*SPBENCH_KERNEL_TIMEOUT/);
    assert.match(b[0][4], /^the Python runner's process ended/);
    assert.match(b[1][4], /^the plugin's process ended/);
  } finally {
    for (const [k, v] of [['SPBENCH_PYTHON', keep.py], ['SPBENCH_KERNEL_TIMEOUT', keep.t]] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
});

// A line the runner printed for an ok peer (recorded from pyrun.result_line; the GPU fills the samples).
const RECORDED =
  '{"type":"result","op":"spmm","method":"torch-blockdiag","family":"peer","params":{"nb":64,"precision":"f32","mode":"graph","layout":"row","batch":100,"max_m":64},' +
  '"status":"ok","timed_region":"graph","samples_ms":[0.0123,0.0125],"flops":2457600.0,"bytes_moved":3327200.0,"peak_mem_bytes":3405824.0,' +
  '"verify":{"checked":true,"passed":true,"max_rel_err":1.2e-07,"tol":0.0001,"reference":"cpu-f64"},"info":{"format":"csr","runner":"python","reps_per_sample":4}}';

test('protocol: the runner\'s lines pass the native protocol schema (a recorded ok line, and lines made now)', { skip: skipPy }, () => {
  const rec = parseNativeLine(RECORDED, 1);
  assert.equal(rec.type === 'result' && rec.family, 'peer');
  // the schema can fail: a family it does not know
  assert.throws(() => parseNativeLine(RECORDED.replace('"peer"', '"torch"'), 1), /does not match protocol v1: family/);
  const dir = tempDir('pyrun-proto');
  const script = join(dir, 'lines.py');
  writeFileSync(script, [
    'import sys, numpy as np',
    `sys.path.insert(0, ${JSON.stringify(join(ROOT, 'cuda/python'))})`,
    'import pyrun',
    'mats = [(3, 4, np.array([0, 1, 1, 3]), np.array([1, 0, 3]), np.array([0.5, -1.0, 2.0]))]',
    'h = pyrun.HostBatch(mats, 8, "f32", "row", 1)',
    'ok, err, d = pyrun.check(h.ref, h, "first run")',
    'pyrun.emit(pyrun.result_line(h, "torch-sparse-loop", "peer", "kernel", "ok", samples=[0.01, 0.02], peak=4096, verify={"checked": True, "passed": ok, "max_rel_err": err}, info={"reps_per_sample": 2}))',
    'bad = h.ref.copy(); bad[5] = float("nan")',
    'ok, err, d = pyrun.check(bad, h, "first run")',
    'pyrun.emit(pyrun.result_line(h, "mine", "user", "e2e", "failed", verify={"checked": True, "passed": ok, "max_rel_err": err, "detail": d}, info={"plugin": "mine.py"}))',
  ].join('\n'));
  const r = spawnSync('python3', [script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n').map((l, i) => parseNativeLine(l, i + 1));
  assert.deepEqual(lines.map((l) => l.type === 'result' && [l.method, l.status, l.verify.passed, l.verify.max_rel_err === null]), [['torch-sparse-loop', 'ok', true, false], ['mine', 'failed', false, true]]);
  const failed = lines[1];
  assert.match(failed.type === 'result' ? failed.verify.detail ?? '' : '', /^first run: matrix 0 row 0 col 5: got nan, want .*\(not finite: unwritten or overflow\)$/);
});
