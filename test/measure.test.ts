// Issue 12's measurement options (no GPU): --cache hot|cold|both, --samples auto with its limits,
// the sampling / cache / clocks fields of the protocol and result files, and compare's "throttled"
// verdict (exit 5) on a planted throttled result file. Behaviour only, never timings.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { samplingArgs } from '../src/bench/api.js';
import { parseCliRequest, SpgemmRequestFields, SpmmRequestFields } from '../src/bench/request-schema.js';
import { planSpgemm } from '../src/bench/spgemm-plan.js';
import { planSpmm } from '../src/bench/spmm-plan.js';
import { referenceArgs } from '../src/bench/spgemm-run.js';
import { compareResults } from '../src/compare/compare.js';
import { parseNativeLine } from '../src/native/protocol.js';
import { ResultFile, type CaseResult, type MethodResult } from '../src/results/schema.js';
import { loadSuite } from '../src/suite/load.js';
import { rng } from '../src/stats.js';
import { EXIT, UserError } from '../src/util/errors.js';
import { spbench } from './cli-helpers.js';
import { jittered, method, resultFile } from './report-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'spbench-measure-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const OPTS = { threshold: 5, alpha: 0.01, strictEnv: false };

const CLOCKS_OK = {
  available: true, max_sm_mhz: 1980, threshold: 0.9, throttled: false,
  start: { sm_mhz: 1980, mem_mhz: 2619, temp_c: 41, power_w: 110.5, reasons: 0, reason_names: '' },
  end: { sm_mhz: 1980, mem_mhz: 2619, temp_c: 44, power_w: 300.1, reasons: 0, reason_names: '' },
};
const CLOCKS_HOT = {
  ...CLOCKS_OK, throttled: true, throttle_why: 'SM clock at end 1410 MHz < 90 % of max 1980 MHz; sw_thermal',
  end: { sm_mhz: 1410, mem_mhz: 2619, temp_c: 87, power_w: 700, reasons: 0x20, reason_names: 'sw_thermal' },
};

function spmmCase(results: MethodResult[]): CaseResult {
  return { id: 'spmm/batch=100/dim=64/nnz=3/nb=64/f32/graph', op: 'spmm', label: 'batch 100 · dim 64', params: { nb: 64 }, input: { source: 'generated' }, results };
}

/** base: two methods at 1 ms; new: batched-ell 20 % slower (throttled or not), cusparse-blockdiag `peerMed` ms. */
function planted(throttled: boolean, peerMed = 1.0): [ReturnType<typeof resultFile>, ReturnType<typeof resultFile>] {
  const next = rng(7);
  const base = resultFile([spmmCase([
    method('batched-ell', 'ours', jittered(next, 1.0, 0.01, 30), { clocks: CLOCKS_OK }),
    method('cusparse-blockdiag', 'peer', jittered(next, 1.0, 0.01, 30), { clocks: CLOCKS_OK }),
  ])]);
  const neu = resultFile([spmmCase([
    method('batched-ell', 'ours', jittered(next, 1.2, 0.01, 30), { clocks: throttled ? CLOCKS_HOT : CLOCKS_OK }),
    method('cusparse-blockdiag', 'peer', jittered(next, peerMed, 0.01, 30), { clocks: CLOCKS_OK }),
  ])]);
  return [base, neu];
}

test('compare: a slower method whose new run was throttled is "throttled", not a regression, and exits 5', async () => {
  const [base, neu] = planted(true);
  const r = await compareResults(base, neu, OPTS);
  const p = r.pairs.find((x) => x.method === 'batched-ell')!;
  assert.equal(p.verdict, 'throttled');
  assert.match(p.note, /throttled \(SM clock at end 1410 MHz/);
  assert.equal(r.counts.regression, 0);
  assert.equal(r.exitCode, EXIT.throttled);
  // the same slowdown unthrottled is a regression (exit 1)
  const [b2, n2] = planted(false);
  const r2 = await compareResults(b2, n2, OPTS);
  assert.equal(r2.pairs.find((x) => x.method === 'batched-ell')!.verdict, 'regression');
  assert.equal(r2.exitCode, EXIT.regression);
  // a real regression elsewhere in the file still wins: exit 1
  const [b3, n3] = planted(true, 1.3);
  const r3 = await compareResults(b3, n3, OPTS);
  assert.deepEqual([r3.pairs.find((x) => x.method === 'cusparse-blockdiag')!.verdict, r3.exitCode], ['regression', EXIT.regression]);
});

test('compare CLI on planted files: throttled shown in the table and Markdown, exit 5; JUnit counts it as skipped', () => {
  const [base, neu] = planted(true);
  assert.ok(ResultFile.safeParse(neu).success, 'the planted file is a valid result file');
  const bp = join(dir, 'base.json');
  const np = join(dir, 'throttled.json');
  writeFileSync(bp, JSON.stringify(base));
  writeFileSync(np, JSON.stringify(neu));
  const md = join(dir, 'summary.md');
  const junit = join(dir, 'junit.xml');
  const r = spbench(['compare', bp, np, '--markdown', md, '--junit', junit]);
  assert.equal(r.code, EXIT.throttled, r.stderr + r.stdout);
  assert.match(r.stdout, /THROTTLED/);
  assert.match(readFileSync(md, 'utf8'), /throttled/);
  assert.match(readFileSync(junit, 'utf8'), /<skipped message="throttled: /);
});

test('requests: --cache hot|cold|both, --samples N|auto and the auto limits are validated with one sentence each', () => {
  const spmm = (raw: Record<string, unknown>) => parseCliRequest(SpmmRequestFields, raw);
  const d = spmm({});
  assert.deepEqual([d.cache, d.samples, d.sampling], [['hot'], 'auto', { maxNoise: 0.5, minSamples: 10, minTime: 0.05, timeout: 5 }], 'the command line samples auto, as suites do');
  assert.deepEqual(spmm({ cache: 'both' }).cache, ['hot', 'cold']);
  assert.deepEqual(spmm({ cache: 'cold' }).cache, ['cold']);
  const auto = spmm({ samples: 'auto', maxNoise: '1.5', minSamples: '12', minTime: '0.2', timeout: '3' });
  assert.deepEqual([auto.samples, auto.sampling], ['auto', { maxNoise: 1.5, minSamples: 12, minTime: 0.2, timeout: 3 }]);
  const bad: Array<[Record<string, unknown>, RegExp]> = [
    [{ cache: 'warm' }, /^--cache: 'warm' is not one of hot, cold$/],
    [{ samples: '0' }, /^--samples: '0' is not auto or an integer in 1\.\.100000$/],
    [{ samples: 'often' }, /^--samples: 'often' is not auto/],
    [{ maxNoise: '0' }, /^--max-noise: '0' is not a number in \(0, 100\]$/],
    [{ minSamples: '0' }, /^--min-samples: '0' is not a positive integer$/],
    [{ minTime: '-1' }, /^--min-time: '-1' is not a number in \[0, 3600\]$/],
    [{ timeout: 'x' }, /^--timeout: 'x' is not a number in \(0, 86400\]$/],
  ];
  for (const [raw, msg] of bad) assert.throws(() => spmm(raw), (e: unknown) => e instanceof UserError && msg.test(e.message), JSON.stringify(raw));
  const g = parseCliRequest(SpgemmRequestFields, { gen: ['banded:n=8,bw=1'], cache: 'both', samples: 'auto' });
  assert.deepEqual([g.cache, g.samples], [['hot', 'cold'], 'auto']);
});

test('the native arguments of a request: --samples, the auto limits only with auto, --cache', () => {
  const s = { maxNoise: 0.5, minSamples: 10, minTime: 0.05, timeout: 10 };
  assert.deepEqual(samplingArgs({ samples: 20, sampling: s }, 'hot'), ['--samples', '20', '--cache', 'hot']);
  assert.deepEqual(samplingArgs({ samples: 'auto', sampling: s }, 'cold'), ['--samples', 'auto', '--max-noise', '0.5', '--min-samples', '10', '--min-time', '0.05', '--timeout', '10', '--cache', 'cold']);
});

test('spgemm --verify: auto by default; every mode but none keeps its reference in the cache, rows:N and auto with the seed', () => {
  const g = parseCliRequest(SpgemmRequestFields, { gen: ['banded:n=8,bw=1'] });
  assert.equal(g.verify, 'auto');
  assert.equal(parseCliRequest(SpgemmRequestFields, { gen: ['banded:n=8,bw=1'], verify: 'rows:12' }).verify, 'rows:12');
  assert.deepEqual(referenceArgs('auto', 3, '/c'), ['--reference', 'auto', '--verify-seed', '3', '--reference-cache', '/c']);
  assert.deepEqual(referenceArgs('rows:12', 3, '/c'), ['--reference', 'rows:12', '--verify-seed', '3', '--reference-cache', '/c']);
  assert.deepEqual(referenceArgs('full', 3, '/c'), ['--reference', 'cpu', '--reference-cache', '/c']);
  assert.deepEqual(referenceArgs('auto', 3, null), ['--reference', 'auto', '--verify-seed', '3']);
  assert.deepEqual(referenceArgs('none', 3, '/c'), ['--reference', 'none']);
});

test('--cache both plans a hot and a cold case per case; hot ids stay as before, cold ones end in /cold', () => {
  const spmm = parseCliRequest(SpmmRequestFields, { cache: 'both', nb: '32,64' });
  const runs = planSpmm({ ...spmm, backend: 'cpu' });
  assert.deepEqual(runs.map((r) => r.cache), ['hot', 'cold']);
  assert.deepEqual(runs.flatMap((r) => r.cases.map((c) => c.id)), [
    'spmm/batch=100/dim=64/nnz=3/nb=32/f32/kernel', 'spmm/batch=100/dim=64/nnz=3/nb=64/f32/kernel',
    'spmm/batch=100/dim=64/nnz=3/nb=32/f32/kernel/cold', 'spmm/batch=100/dim=64/nnz=3/nb=64/f32/kernel/cold',
  ]);
  assert.match(runs[1].cases[0].label, / · L2 cold$/);
  assert.match(runs[0].cases[0].label, / · L2 hot$/);
  assert.equal(runs[1].cases[0].params.cache, 'cold');
  const hotOnly = planSpmm({ ...parseCliRequest(SpmmRequestFields, {}), backend: 'cpu' });
  assert.doesNotMatch(hotOnly[0].cases[0].label, /L2/);
  assert.equal(hotOnly[0].cases[0].params.cache, undefined);
  const g = planSpgemm({ ...parseCliRequest(SpgemmRequestFields, { gen: ['banded:n=8,bw=1'], cache: 'both' }), backend: 'cpu' });
  assert.deepEqual(g.map((p) => [p.id, p.cache]), [['spgemm/banded:n=8,bw=1/f32', 'hot'], ['spgemm/banded:n=8,bw=1/f32/cold', 'cold']]);
});

test('suites sample auto unless the suite or the case gives --samples', async () => {
  const p = join(dir, 'suite.json');
  writeFileSync(p, JSON.stringify({ name: 's', cases: [{ op: 'spmm', name: 'a' }, { op: 'spmm', name: 'b', samples: 25, cache: 'both' }] }));
  const s = await loadSuite(p);
  assert.deepEqual(s.cases.map((c) => [c.samples, c.cache]), [['auto', ['hot']], [25, ['hot', 'cold']]]);
  writeFileSync(p, JSON.stringify({ name: 's', defaults: { samples: 30 }, cases: [{ op: 'spmm', name: 'a' }] }));
  assert.equal((await loadSuite(p)).cases[0].samples, 30);
  writeFileSync(p, JSON.stringify({ name: 's', cases: [{ op: 'spmm', name: 'a', maxNoise: 0 }] }));
  await assert.rejects(loadSuite(p), /cases\[0\]\.maxNoise.*--max-noise: '0' is not a number in \(0, 100\]/);
});

test('protocol: a result line carries cache, sampling (with its stopping rule) and clocks, or clocks unavailable with the reason', () => {
  const line = {
    type: 'result', op: 'spmm', method: 'batched-ell', family: 'ours', params: { nb: 64 }, status: 'ok', timed_region: 'graph', samples_ms: [0.1, 0.1],
    flops: 1, bytes_moved: 1, peak_mem_bytes: 1, verify: { checked: true, passed: true, max_rel_err: 0, tol: 1e-4, reference: 'cpu-f64' },
    cache: 'cold',
    sampling: { samples: 'auto', rule: 'noise', n: 2, noise_pct: 0.3, noise_estimator: 'sqrt(pi/2)*1.4826*MAD/sqrt(n)/median', wall_s: 0.1, max_noise_pct: 0.5, min_samples: 10, min_time_s: 0.05, timeout_s: 10 },
    clocks: CLOCKS_HOT,
  };
  const l = parseNativeLine(JSON.stringify(line), 1);
  assert.ok(l.type === 'result' && l.clocks?.throttled && l.sampling?.rule === 'noise' && l.cache === 'cold');
  const absent = parseNativeLine(JSON.stringify({ ...line, clocks: { available: false, reason: 'libnvidia-ml.so.1 could not be loaded (not found)' } }), 1);
  assert.ok(absent.type === 'result' && absent.clocks?.available === false);
  assert.throws(() => parseNativeLine(JSON.stringify({ ...line, sampling: { ...line.sampling, rule: 'bored' } }), 3), /line 3 .*sampling\.rule/);
  assert.throws(() => parseNativeLine(JSON.stringify({ ...line, cache: 'warm' }), 4), /line 4 .*cache/);
});

test('CPU backend end to end: --cache both gives two cases with cache and sampling recorded; --samples auto says which rule stopped it', () => {
  const out = join(dir, 'cpu.json');
  const r = spbench(['spmm', '--backend', 'cpu', '--batch', '3', '--dim', '8', '--nb', '4', '--warmup', '0', '--samples', '4', '--cache', 'both', '--json', out, '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  const f = ResultFile.parse(JSON.parse(readFileSync(out, 'utf8')));
  assert.deepEqual(f.cases.map((c) => c.id), ['spmm/batch=3/dim=8/nnz=3/nb=4/f32/kernel', 'spmm/batch=3/dim=8/nnz=3/nb=4/f32/kernel/cold']);
  for (const c of f.cases) {
    for (const m of c.results) {
      assert.equal(m.cache, c.id.endsWith('/cold') ? 'cold' : 'hot');
      assert.deepEqual([m.sampling?.samples, m.sampling?.rule, m.sampling?.n, m.samples_ms.length], ['4', 'samples', 4, 4]);
    }
  }
  const auto = join(dir, 'auto.json');
  const a = spbench(['spgemm', '--backend', 'cpu', '--gen', 'banded:n=50,bw=2', '--warmup', '0', '--samples', 'auto', '--min-samples', '5', '--max-noise', '50', '--min-time', '0', '--timeout', '5', '--json', auto, '--quiet']);
  assert.equal(a.code, 0, a.stderr);
  const g = ResultFile.parse(JSON.parse(readFileSync(auto, 'utf8')));
  for (const m of g.cases[0].results) {
    assert.ok(m.sampling && ['noise', 'timeout'].includes(m.sampling.rule), JSON.stringify(m.sampling));
    assert.equal(m.sampling.n, m.samples_ms.length);
    assert.ok(m.sampling.n >= 5 || m.sampling.rule === 'timeout');
  }
  const bad = spbench(['spmm', '--backend', 'cpu', '--cache', 'lukewarm']);
  assert.equal(bad.code, EXIT.usage);
  assert.match(bad.stderr, /--cache: 'lukewarm' is not one of hot, cold/);
});

test('--profile: the method once under ncu with the run\'s arguments (a stand-in ncu), report and summary beside the result; not applicable without ncu', async () => {
  const { ensureExecutable, runNative } = await import('../src/native/index.js');
  const { profileArgs, profileMethod, profilePaths } = await import('../src/bench/profile.js');
  assert.deepEqual(profilePaths(join('out', 'new.json'), 'batched-ell'), { dir: 'out', stem: 'new.profile-batched-ell' });
  assert.deepEqual(profilePaths(undefined, 'hash'), { dir: '.', stem: 'spbench.profile-hash' });
  const spb = join(dir, 'p.spb');
  assert.equal(spbench(['gen', '--batch', '3', '--dim', '8', '--nnz-row', '2', '-o', spb]).code, 0);
  const exe = await ensureExecutable('cpu', {});
  const args = ['spmm', '--input', spb, '--nb', '4', '--methods', 'all', '--warmup', '3', '--samples', 'auto', '--timeout', '1', '--cache', 'hot'];
  assert.deepEqual(profileArgs(args, 'cpu-coo').slice(-7), ['--methods', 'cpu-coo', '--warmup', '0', '--samples', '1', '--profile-region']);
  // a stand-in ncu: records its arguments, runs the profiled command, writes the report; --import prints a summary
  const ncu = join(dir, 'ncu');
  writeFileSync(ncu, `#!/bin/sh
if [ "$1" = "--import" ]; then echo "summary of $2"; exit 0; fi
echo "$@" > ${JSON.stringify(join(dir, 'ncu-args.txt'))}
shift 2; rep=$2; shift 7; touch "$rep"; exec "$@"
`, { mode: 0o755 });
  const t = { method: 'cpu-coo', dir, stem: 'r.profile-cpu-coo' };
  const p = await profileMethod({ runNative }, ncu, exe, args, t, 'cuda');
  assert.equal(p.status, 'ok', p.reason);
  assert.equal(p.report, join(dir, 'r.profile-cpu-coo.ncu-rep'));
  assert.equal(readFileSync(p.summary!, 'utf8').trim(), `summary of ${p.report}`);
  assert.match(readFileSync(join(dir, 'ncu-args.txt'), 'utf8').trim(), /^--log-file \S+ --export \S+ --force-overwrite --profile-from-start off --target-processes all \S+ spmm .* --methods cpu-coo --warmup 0 --samples 1 --profile-region$/);
  const none = await profileMethod({ runNative }, null, exe, args, t, 'cuda');
  assert.deepEqual([none.status, none.reason], ['not_applicable', 'ncu (Nsight Compute) was not found in $CUDA_HOME/bin, /usr/local/cuda/bin or on PATH']);
  const r = spbench(['spmm', '--backend', 'cpu', '--profile', 'a,b']);
  assert.deepEqual([r.code, r.stderr.trim()], [EXIT.usage, "spbench: --profile: expected one method name, got 'a,b'"]);
});

test('--metrics: ncu\'s raw CSV summed over the kernels of one call; not applicable on the CPU backend; bad names refused', async () => {
  const { parseNcuCsv } = await import('../src/bench/profile.js');
  const csv = [
    '==PROF== Connected to process 1234',
    '"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","dram__bytes_read.sum","gpu__time_duration.sum"',
    '"","","","","","","","byte","nsecond"',
    '"0","1234","spbench-spmm-cuda","gpu1","batched_ell_kernel","1","13","1,024","2,048"',
    '"1","1234","spbench-spmm-cuda","gpu1","reduce_kernel","1","13","76","952"',
  ].join('\n');
  assert.deepEqual(parseNcuCsv(csv, ['dram__bytes_read.sum', 'gpu__time_duration.sum', 'not__there']), { values: { 'dram__bytes_read.sum': 1100, 'gpu__time_duration.sum': 3000 }, kernels: 2 });
  assert.throws(() => parseNcuCsv('==ERROR== ERR_NVGPUCTRPERM', ['x']), /no metrics table/);
  const out = join(dir, 'metrics.json');
  const r = spbench(['spgemm', '--backend', 'cpu', '--gen', 'banded:n=20,bw=1', '--warmup', '0', '--samples', '2', '--metrics', 'dram__bytes_read.sum', '--json', out, '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  const m = ResultFile.parse(JSON.parse(readFileSync(out, 'utf8'))).cases[0].results[0].metrics;
  assert.deepEqual(m, { status: 'not_applicable', reason: 'the CPU backend runs no GPU kernels (hardware counters need ncu and a GPU)' });
  const bad = spbench(['spgemm', '--backend', 'cpu', '--gen', 'banded:n=20,bw=1', '--metrics', 'dram bytes']);
  assert.deepEqual([bad.code, bad.stderr.trim()], [EXIT.usage, "spbench: --metrics: 'dram bytes' is not a metric name (letters, digits, _ . :), e.g. dram__bytes_read.sum"]);
});
