// User kernels (--kernel plugins): manifest, not-applicable reasons, build cache keys, a real nvcc
// compile error (file:line, exit 2), and the crash / timeout / CUDA-error paths with fake executables.
import assert from 'node:assert/strict';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import type { SpgemmRequest, SpmmRequest } from '../src/bench/api.js';
import type { BenchDeps } from '../src/bench/deps.js';
import { SpmmRequestFields, SpgemmRequestFields } from '../src/bench/request-schema.js';
import { runSpgemm } from '../src/bench/spgemm-run.js';
import { runSpmm } from '../src/bench/spmm-run.js';
import { generateBatch, parseGenSpec, parseRange } from '../src/matrix/generate/index.js';
import type { CsrMatrix } from '../src/matrix/types.js';
import type { NativeLine, ResultLine } from '../src/native/protocol.js';
import { findNvcc, type Toolchain } from '../src/native/toolchain.js';
import { spgemmNotApplicable, spmmNotApplicable } from '../src/plugins/applicability.js';
import { buildPlugin, planPluginBuild, plainCompilerOutput } from '../src/plugins/build.js';
import { parseManifest, readManifest, spmmMethods, type SpmmManifest } from '../src/plugins/manifest.js';
import { preparePlugins, runPluginProcess } from '../src/plugins/run.js';
import { ResultFile } from '../src/results/schema.js';
import { RuntimeFailure, UserError } from '../src/util/errors.js';
import { resultLine } from './bench-helpers.js';
import { spbench } from './cli-helpers.js';
import { tempDir, writeScript } from './native-fixtures.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CUDA_DIR = join(ROOT, 'cuda');

const manifestText = (over: Record<string, unknown> = {}) =>
  JSON.stringify({ name: 'mine', op: 'spmm', formats: ['csr'], layouts: ['row'], precisions: ['f32'], mixed: true, graph: true, ...over });
const pluginSource = (manifest: string, body = '') =>
  `#include <spbench_plugin.h>\n${body}static spbench::Result run(const spbench::SpmmProblem&, void*) { return spbench::ok(); }\nSPBENCH_SPMM_PLUGIN(R"spbench(${manifest})spbench", nullptr, run, nullptr)\n`;

function writePlugin(dir: string, name: string, manifest = manifestText(), body = ''): string {
  const p = join(dir, name);
  writeFileSync(p, pluginSource(manifest, body));
  return p;
}

// ---- manifest ---------------------------------------------------------------------------------

test('manifest: the shipped examples parse, with their names, formats and capabilities', () => {
  const warp = readManifest(join(ROOT, 'examples/plugins/warp_row_spmm.cu'));
  assert.equal(warp.op, 'spmm');
  assert.equal(warp.name, 'warp-row');
  assert.deepEqual(warp.op === 'spmm' && warp.layouts, ['row', 'col']);
  const smem = readManifest(join(ROOT, 'examples/plugins/smem_row_spmm.cu')) as SpmmManifest;
  assert.deepEqual(smem.layouts, ['row']);
  const esc = readManifest(join(ROOT, 'examples/plugins/esc_spgemm.cu'));
  assert.deepEqual([esc.op, esc.name, esc.precisions], ['spgemm', 'cub-esc', ['f32', 'f64']]);
});

test('manifest: one method per format, suffixed only when there are two', () => {
  const one = parseManifest(pluginSource(manifestText({ formats: ['coo'] })), 'a.cu') as SpmmManifest;
  assert.deepEqual(spmmMethods(one), [{ method: 'mine', format: 'coo' }]);
  const two = parseManifest(pluginSource(manifestText({ formats: ['csr', 'coo'] })), 'a.cu') as SpmmManifest;
  assert.deepEqual(spmmMethods(two).map((m) => m.method), ['mine-csr', 'mine-coo']);
});

test('manifest: problems are usage errors naming the file (and line) and the field', () => {
  const err = (src: string) => {
    try {
      parseManifest(src, 'dir/k.cu');
    } catch (e) {
      assert.ok(e instanceof UserError, String(e));
      return e.message;
    }
    assert.fail('expected a UserError');
  };
  assert.match(err('__global__ void k() {}\n'), /^--kernel dir\/k\.cu: no manifest found: declare one with SPBENCH_SPMM_PLUGIN/);
  assert.match(err('\n\nSPBENCH_SPMM_PLUGIN(R"spbench({"name": )spbench", a, b, c)'), /^--kernel dir\/k\.cu:3: the manifest is not valid JSON/);
  assert.match(err(pluginSource(manifestText({ precisions: ['f16'] }))), /dir\/k\.cu:\d+: field "precisions\.0"/);
  assert.match(err(pluginSource(manifestText({ colour: 'red' }))), /unknown field\(s\) "colour"/);
  assert.match(err(pluginSource(manifestText({ name: 'has space' }))), /field "name": must start with a letter/);
  assert.match(err(pluginSource(manifestText({ graph: undefined }))), /field "graph"/);
  assert.match(err(pluginSource(manifestText()) + pluginSource(manifestText())), /2 manifests found \(lines 3, 6\)/);
});

test('manifest: other extensions than .cu and .py are refused', () => {
  const dir = tempDir('plugin-ext');
  writeFileSync(join(dir, 'k.cpp'), pluginSource(manifestText()));
  assert.throws(() => readManifest(join(dir, 'k.cpp')), /expected a CUDA plugin \(\.cu file\) or a Python plugin \(\.py file\), got '\.cpp'/);
});

test('preparePlugins: an spgemm plugin in an spmm run, or two plugins with one name, are usage errors', async () => {
  const dir = tempDir('plugin-prep');
  const a = writePlugin(dir, 'a.cu');
  const b = writePlugin(dir, 'b.cu');
  const noBuild = async () => assert.fail('nothing is built on the CPU backend');
  await assert.rejects(preparePlugins([a, b], 'spmm', 'cpu', noBuild, () => {}), (e) => e instanceof UserError && /method name 'mine' is already used by .*a\.cu/.test(e.message));
  await assert.rejects(preparePlugins([join(ROOT, 'examples/plugins/esc_spgemm.cu')], 'spmm', 'cpu', noBuild, () => {}), /is an spgemm plugin \("op": "spgemm"\), but this is an spmm run/);
  const ok = await preparePlugins([a], 'spmm', 'cpu', noBuild, () => {});
  assert.equal(ok[0].exe, null);
});

test('request schema: kernel is a field of spmm and spgemm requests (suites too); a missing file is named', () => {
  const dir = tempDir('plugin-req');
  const k = writePlugin(dir, 'k.cu');
  assert.deepEqual(SpmmRequestFields.parse({ kernel: [k] }).kernels, [k]);
  assert.deepEqual(SpgemmRequestFields.parse({ gen: 'banded:n=10,bw=1', kernel: k }).kernels, [k]);
  assert.equal(SpmmRequestFields.parse({}).kernels, undefined);
  const r = SpmmRequestFields.safeParse({ kernel: ['nope.cu'] });
  assert.ok(!r.success && r.error.issues[0].message === "--kernel: file 'nope.cu' does not exist");
});

// ---- not applicable ---------------------------------------------------------------------------

test('not applicable: precision, layout, mixed batch, graph mode and the CPU backend give their reasons', () => {
  const m = parseManifest(pluginSource(manifestText({ mixed: false, graph: false })), 'k.cu') as SpmmManifest;
  const base = { backend: 'cuda', precision: 'f32', layout: 'row', mode: 'kernel', mixed: false } as const;
  assert.equal(spmmNotApplicable(m, base), null);
  assert.equal(spmmNotApplicable(m, { ...base, precision: 'f64' }), 'the plugin declares precisions f32; this case is f64');
  // the plugin ABI carries f32 and f64 values: f16 / bf16 cases are never a plugin's
  assert.equal(spmmNotApplicable({ ...m, precisions: ['f32', 'f64'] }, { ...base, precision: 'bf16' }), 'the plugin declares precisions f32, f64; this case is bf16');
  assert.equal(spmmNotApplicable(m, { ...base, layout: 'col' }), 'the plugin declares layouts row; this case is col-major');
  assert.match(spmmNotApplicable(m, { ...base, mixed: true }) ?? '', /does not declare mixed batches/);
  assert.match(spmmNotApplicable(m, { ...base, mode: 'graph' }) ?? '', /does not declare graph capture/);
  assert.equal(spmmNotApplicable(m, { ...base, backend: 'cpu' }, 'no GPU found'), 'the CPU backend cannot run CUDA plugins (backend cpu: no GPU found)');
  const g = parseManifest(pluginSource(JSON.stringify({ name: 'g', op: 'spgemm', precisions: ['f64'] })), 'g.cu');
  assert.ok(g.op === 'spgemm');
  assert.equal(spgemmNotApplicable(g, { backend: 'cuda', precision: 'f32' }), 'the plugin declares precisions f64; this case is f32');
  assert.equal(spgemmNotApplicable(g, { backend: 'cuda', precision: 'f64' }), null);
});

// ---- build cache ------------------------------------------------------------------------------

/** A stand-in nvcc: writes the -o file and counts its calls, so cache hits are visible. */
function fakeToolchain(dir: string): { tc: Toolchain; calls: () => number } {
  const counter = join(dir, 'nvcc-calls');
  const nvcc = writeScript(dir, 'nvcc', `#!/bin/sh\necho x >> ${counter}\nwhile [ "$#" -gt 0 ]; do if [ "$1" = "-o" ]; then echo built > "$2"; fi; shift; done\n`);
  const lib = { header: null, library: null, version: null };
  return {
    tc: { nvcc: { path: nvcc, version: '13.0.0', versionText: 'fake nvcc 13.0.0' }, gxx: null, cudaRoots: [], cusparse: lib, cublas: lib },
    calls: () => (existsSync(counter) ? readFileSync(counter, 'utf8').split('\n').filter(Boolean).length : 0),
  };
}

test('build cache: the key covers the plugin, the public header and the flags; the same inputs hit the cache', async () => {
  const dir = tempDir('plugin-cache');
  const cache = join(dir, 'cache');
  const cudaDir = join(dir, 'cuda');
  cpSync(CUDA_DIR, cudaDir, { recursive: true });
  const { tc, calls } = fakeToolchain(dir);
  const src = writePlugin(dir, 'k.cu');
  const m = readManifest(src);
  const opts = { toolchain: tc, cudaDir, cacheDir: cache, arch: '90', extraFlags: [] };
  const first = await planPluginBuild(src, m, opts);
  assert.equal((await planPluginBuild(src, m, opts)).hash, first.hash, 'same inputs, same key');
  assert.match(first.exePath, /spbench-plugin-spmm-mine-[0-9a-f]{16}$/);

  const exe = await buildPlugin(src, m, opts);
  assert.equal(exe, first.exePath);
  assert.equal(calls(), 1);
  assert.equal(await buildPlugin(src, m, opts), exe);
  assert.equal(calls(), 1, 'the second build is a cache hit');

  writePlugin(dir, 'k.cu', manifestText(), '// a changed kernel\n');
  const changed = await buildPlugin(src, m, opts);
  assert.notEqual(changed, exe, 'changing the plugin changes the key');
  assert.equal(calls(), 2);

  writeFileSync(join(cudaDir, 'include', 'spbench_plugin.h'), `${readFileSync(join(cudaDir, 'include', 'spbench_plugin.h'), 'utf8')}\n// changed\n`);
  const headerChanged = await planPluginBuild(src, m, opts);
  assert.notEqual(headerChanged.hash, (await planPluginBuild(src, m, { ...opts, cudaDir: CUDA_DIR })).hash, 'changing the header changes the key');
  assert.notEqual(headerChanged.exePath, changed);
  await buildPlugin(src, m, opts);
  assert.equal(calls(), 3, 'a changed header rebuilds');

  const flagged = await planPluginBuild(src, m, { ...opts, extraFlags: ['-DX=1'] });
  assert.notEqual(flagged.hash, headerChanged.hash, 'flags are part of the key');
  const arch = await planPluginBuild(src, m, { ...opts, arch: '8.0' });
  assert.notEqual(arch.hash, headerChanged.hash, 'the GPU architecture is part of the key');
});

test('compiler output: the plugin\'s absolute path becomes the given one, nvcc\'s file(12) becomes file:12', () => {
  const out = '/abs/dir/k.cu(12): error: identifier "x" is undefined\n/abs/dir/k.cu:14:3: error: y\n/abs/dir/k.cu(7): warning: z';
  assert.equal(plainCompilerOutput(out, '/abs/dir/k.cu', 'k.cu'), 'k.cu:12: error: identifier "x" is undefined\nk.cu:14:3: error: y\nk.cu:7: warning: z');
});

const nvcc = findNvcc();
test('a plugin that does not compile: nvcc\'s message with the plugin\'s file and line, exit 2', { skip: nvcc ? false : 'nvcc not found' }, () => {
  const dir = tempDir('plugin-broken');
  writePlugin(dir, 'broken.cu', manifestText({ name: 'broken' }), 'static void f() {\n  undefined_thing(1);\n}\n');
  const r = spbench(['build', '--kernel', join(dir, 'broken.cu')], { SPBENCH_CUDA_ARCH: '90', SPBENCH_CACHE_DIR: join(dir, 'cache') });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, new RegExp(`--kernel ${join(dir, 'broken.cu').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: nvcc could not compile the plugin: .*broken\\.cu:3: error: identifier "undefined_thing" is undefined`));
  const left = existsSync(join(dir, 'cache', 'bin')) ? readdirSync(join(dir, 'cache', 'bin')) : [];
  assert.deepEqual(left.filter((f) => f.startsWith('spbench-plugin-') && !f.endsWith('.lock')), [], 'no executable or temporary is left behind');
});

// ---- crash, timeout, CUDA errors (fake runner executables) ------------------------------------

const ENV_LINE = JSON.stringify({ type: 'env', protocol: 1, backend: 'cuda', executable: 'x', devices: [] });
const userOk = (nb: number) => JSON.stringify(resultLine({ method: 'mine', family: 'user', params: { nb } }));
const expected = [16, 64].map((nb) => ({ method: 'mine', template: resultLine({ method: 'swa-csr', params: { nb } }) }));

test('a plugin that crashes: what it reported stays, the rest is an error naming the signal, with compute-sanitizer\'s hint', async () => {
  const dir = tempDir('plugin-crash');
  const exe = writeScript(dir, 'crash', `#!/bin/sh\necho '${ENV_LINE}'\necho '${userOk(16)}'\necho 'spbench-plugin-spmm: about to fault' >&2\nkill -SEGV $$\n`);
  const lines = await runPluginProcess(exe, ['spmm', '--input', 'x.spb'], 'k.cu', expected, { timeoutMs: 10_000 });
  assert.deepEqual(lines.map((l) => [l.params.nb, l.status]), [[16, 'ok'], [64, 'error']]);
  const err = lines[1];
  assert.equal(err.family, 'user');
  assert.match(err.reason ?? '', /process ended before reporting this case: .*killed by signal SIGSEGV/);
  assert.match(err.reason ?? '', /last stderr line: spbench-plugin-spmm: about to fault/);
  assert.match(err.reason ?? '', /compute-sanitizer .*crash spmm --input x\.spb/);
  assert.deepEqual(err.samples_ms, []);
  assert.equal(err.flops, expected[1].template.flops);
});

test('a plugin that hangs is stopped after the timeout and reported', async () => {
  const dir = tempDir('plugin-hang');
  const exe = writeScript(dir, 'hang', `#!/bin/sh\necho '${ENV_LINE}'\nexec sleep 30\n`);
  const t0 = Date.now();
  const lines = await runPluginProcess(exe, ['spmm'], 'k.cu', expected, { timeoutMs: 500 });
  assert.ok(Date.now() - t0 < 10_000, 'stopped, not waited for');
  assert.deepEqual(lines.map((l) => l.status), ['error', 'error']);
  assert.match(lines[0].reason ?? '', /did not finish within 0\.5 s and was stopped .*SPBENCH_KERNEL_TIMEOUT/);
});

test('a CUDA error the runner reported keeps its line (once) and gets compute-sanitizer\'s hint', async () => {
  const dir = tempDir('plugin-cudaerr');
  const bad = JSON.stringify(resultLine({ method: 'mine', family: 'user', params: { nb: 16 }, status: 'error', samples_ms: [], reason: 'CUDA call cudaStreamSynchronize(s) failed: an illegal memory access was encountered (plugin_spmm.cu:200)' }));
  const exe = writeScript(dir, 'fault', `#!/bin/sh\necho '${ENV_LINE}'\necho '${bad}'\nexit 3\n`);
  const lines = await runPluginProcess(exe, ['spmm'], 'k.cu', expected, { timeoutMs: 10_000 });
  assert.equal(lines.length, 2);
  assert.match(lines[0].reason ?? '', /^CUDA call cudaStreamSynchronize\(s\) failed: an illegal memory access was encountered .*; run it under compute-sanitizer/);
  assert.match(lines[1].reason ?? '', /exited with status 3/);
});

// ---- in a run, beside the built-in methods ------------------------------------------------------

function square(n: number): CsrMatrix {
  return { rows: n, cols: n, rowPtr: new Int32Array(n + 1).map((_, i) => i), colIdx: new Int32Array(n).map((_, i) => i), values: new Float64Array(n).fill(1) };
}

function runDeps(backend: 'cpu' | 'cuda', plugin: (args: string[], onLine?: (l: NativeLine) => void) => NativeLine[]) {
  const built: string[] = [];
  const deps: BenchDeps = {
    chooseBackend: async () => ({ backend, reason: 'test double' }),
    ensureExecutable: async (t) => `/fake/${t}`,
    buildPlugin: async (file) => {
      built.push(file);
      return '/fake/plugin';
    },
    runNative: async (exe, args, o) => {
      if (exe === '/fake/plugin') return plugin(args, o.onLine);
      const nbs = args[0] === 'spmm' ? args[args.indexOf('--nb') + 1].split(',').map(Number) : [0];
      const lines: NativeLine[] = [
        { type: 'env', protocol: 1, backend, executable: exe, devices: [] },
        ...nbs.map((nb) => resultLine({ op: args[0] as 'spmm', method: 'builtin', family: 'ours', params: { nb } })),
        { type: 'done' },
      ];
      for (const l of lines) o.onLine?.(l);
      return lines;
    },
    parseRange, generateBatch, parseGenSpec,
    generateMatrix: () => square(5),
    loadMatrix: async () => square(4),
    loadBatch: async () => ({ matrices: [square(2)], names: ['a'] }),
    writeSpb: async (path) => writeFile(path, 'spb'),
  };
  return { deps, built };
}

const sink = { progress: () => {}, caseDone: () => {}, log: () => {} };
const spmmReq = (over: Partial<SpmmRequest>): SpmmRequest => ({
  batch: [4], dim: ['8'], nnzRow: ['3'], nb: [16, 64], precision: ['f32'], mode: ['kernel'], layout: 'row', methods: 'all', seed: 1, warmup: 1, samples: 20, backend: 'auto', ...over,
});

test('runSpmm --kernel: a crashing plugin is an error while the built-in methods keep their figures; f64 is not applicable to an f32 plugin', async () => {
  const dir = tempDir('plugin-run');
  const k = writePlugin(dir, 'k.cu');
  const pluginArgs: string[][] = [];
  const { deps, built } = runDeps('cuda', (args, onLine) => {
    pluginArgs.push(args);
    onLine?.({ type: 'env', protocol: 1, backend: 'cuda', executable: 'p', devices: [] });
    onLine?.(resultLine({ method: 'mine', family: 'user', params: { nb: 16 } }) as ResultLine);
    throw new RuntimeFailure('spbench-plugin: killed by signal SIGSEGV (crashed or was stopped)');
  });
  const file = ResultFile.parse(await runSpmm(spmmReq({ kernels: [k], precision: ['f32', 'f64'] }), sink, deps));
  assert.deepEqual(built, [k]);
  assert.equal(pluginArgs.length, 1, 'the plugin runs once: f64 never reaches it');
  assert.ok(pluginArgs[0].includes('--seed') && pluginArgs[0].includes('--input'), 'same input and seed as the built-in run');
  assert.deepEqual(pluginArgs[0].slice(-4), ['--formats', 'csr', '--names', 'mine']);
  const status = (precision: string, nb: number, method: string) => file.cases.find((c) => c.params.precision === precision && c.params.nb === nb)!.results.find((r) => r.method === method)!;
  assert.equal(status('f32', 16, 'builtin').status, 'ok');
  assert.equal(status('f32', 64, 'builtin').status, 'ok');
  assert.equal(status('f32', 16, 'mine').status, 'ok');
  const crashed = status('f32', 64, 'mine');
  assert.equal(crashed.status, 'error');
  assert.match(crashed.reason ?? '', /SIGSEGV.*compute-sanitizer/);
  const f64 = status('f64', 16, 'mine');
  assert.deepEqual([f64.status, f64.family, f64.reason], ['not_applicable', 'user', 'the plugin declares precisions f32; this case is f64']);
});

test('the CPU backend: user kernels are listed as not applicable with the reason, nothing is built', async () => {
  const dir = tempDir('plugin-cpu');
  const k = writePlugin(dir, 'k.cu');
  const { deps, built } = runDeps('cpu', () => assert.fail('the plugin must not run on the CPU backend'));
  const spmm = await runSpmm(spmmReq({ kernels: [k], samples: 3 }), sink, deps);
  const r = spmm.cases[0].results.find((x) => x.method === 'mine')!;
  assert.deepEqual([r.status, r.reason], ['not_applicable', 'the CPU backend cannot run CUDA plugins (backend cpu: test double)']);
  const sg: SpgemmRequest = { inputs: [], gen: ['banded:n=5,bw=1'], precision: ['f32'], methods: 'all', seed: 1, warmup: 1, samples: 3, breakdown: false, explain: false, verify: 'full', backend: 'cpu', kernels: [join(ROOT, 'examples/plugins/esc_spgemm.cu')] };
  const spgemm = await runSpgemm(sg, sink, deps);
  const g = spgemm.cases[0].results.find((x) => x.method === 'cub-esc')!;
  assert.deepEqual([g.status, g.family], ['not_applicable', 'user']);
  assert.deepEqual(built, []);
});

test('CLI: spmm --kernel on the CPU backend lists the plugin as not applicable; a bad manifest exits 2 naming the file', () => {
  const dir = tempDir('plugin-cli');
  const k = writePlugin(dir, 'k.cu');
  const r = spbench(['spmm', '--backend', 'cpu', '--batch', '2', '--dim', '8', '--nb', '4', '--samples', '2', '--warmup', '0', '--kernel', k, '--json', '-']);
  assert.equal(r.code, 0, r.stderr);
  const res = JSON.parse(r.stdout).cases[0].results.find((x: { method: string }) => x.method === 'mine');
  assert.equal(res.family, 'user');
  assert.equal(res.status, 'not_applicable');
  writeFileSync(join(dir, 'bad.cu'), pluginSource('{"name": "x"'));
  const bad = spbench(['spmm', '--backend', 'cpu', '--kernel', join(dir, 'bad.cu')]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--kernel .*bad\.cu:\d+: the manifest is not valid JSON/);
});

test('docs/plugins.md: the first plugin a new user writes is examples/plugins/naive_spmm.cu word for word (so CI compiles it)', () => {
  const doc = readFileSync(join(ROOT, 'docs/plugins.md'), 'utf8');
  const snippet = /```cpp\n([\s\S]*?)```/.exec(doc)?.[1];
  assert.equal(snippet, readFileSync(join(ROOT, 'examples/plugins/naive_spmm.cu'), 'utf8'));
});

test('suites: a case\'s kernel paths are relative to the suite file, like its matrices', async () => {
  const { parseSuite } = await import('../src/suite/load.js');
  const dir = tempDir('plugin-suite');
  const k = writePlugin(dir, 'k.cu');
  const suite = parseSuite({ name: 's', cases: [{ name: 'c', op: 'spmm', kernel: 'k.cu', nb: 16 }] }, join(dir, 'suite.json'));
  assert.deepEqual((suite.cases[0] as { kernels?: string[] }).kernels, [k]);
  assert.throws(() => parseSuite({ name: 's', cases: [{ name: 'c', op: 'spmm', kernel: 'gone.cu' }] }, join(dir, 'suite.json')), /cases\[0\]\.kernel.*--kernel: file '.*gone\.cu' does not exist/);
});
