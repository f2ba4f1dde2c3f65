// compare with separate process runs (--repeat): on a real GPU the samples within one process are
// tight while the level moves 5–15 % between processes, so a test on within-run samples calls that
// drift a regression. These tests draw exactly that kind of synthetic data (seeded).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CaseResult, MethodResult, ResultFile } from '../src/results/schema.js';
import { ResultFile as ResultFileSchema } from '../src/results/schema.js';
import { mergeRuns } from '../src/bench/repeat.js';
import type { ResultLine } from '../src/native/protocol.js';
import { compareResults, type CompareOptions } from '../src/compare/compare.js';
import { renderCompareMarkdown, renderTerminal } from '../src/compare/render.js';
import { median, rng, tCritical, tTwoSidedP, welchLog } from '../src/stats.js';
import { parseSuite } from '../src/suite/load.js';
import { RuntimeFailure, UserError } from '../src/util/errors.js';
import { jittered, method, resultFile } from './report-fixtures.js';
import { cli, tempDir, writeJson } from './report-cli.js';

const OPTS: CompareOptions = { threshold: 5, alpha: 0.05, strictEnv: false };
const CASE = 'spmm/batch=100/dim=64/nnz=3/nb=16/f32/graph';

/**
 * One method measured in `runs` processes: each process has its own level (true level × a uniform
 * drift factor within ±drift, shared by all methods of that process via `levels`), and tight
 * samples (±0.5 %) around it.
 */
function runMethod(next: () => number, name: string, family: MethodResult['family'], level: number, levels: number[], n = 30): MethodResult {
  const runs = levels.map((f) => jittered(next, level * f, 0.005, n));
  return method(name, family, runs.flat(), { run_medians_ms: runs.map((r) => median(r)) });
}

function driftLevels(next: () => number, runs: number, drift: number): number[] {
  return Array.from({ length: runs }, () => 1 + drift * (2 * next() - 1));
}

function caseOf(results: MethodResult[], id = CASE): CaseResult {
  return { id, op: 'spmm', label: id, params: { nb: 16 }, input: {}, results };
}

function oneMethodFiles(seed: number, baseLevel: number, newLevel: number, drift: number, runs: [number, number]): [ResultFile, ResultFile] {
  const next = rng(seed);
  const side = (level: number, r: number) => resultFile([caseOf([runMethod(next, 'batched-ell', 'ours', level, driftLevels(next, r, drift))])]);
  return [side(baseLevel, runs[0]), side(newLevel, runs[1])];
}

/** What one process run of the same measurement would have recorded (as files did before --repeat). */
function firstRunOnly(f: ResultFile): ResultFile {
  const first = ({ run_medians_ms: runs, ...m }: MethodResult): MethodResult => {
    const samples = m.samples_ms.slice(0, m.samples_ms.length / (runs?.length ?? 1));
    return { ...m, samples_ms: samples, median_ms: median(samples) };
  };
  return { ...f, cases: f.cases.map((c) => ({ ...c, results: c.results.map(first) })) };
}

test("Welch's t on logs and the t distribution match scipy", () => {
  assert.ok(Math.abs(tTwoSidedP(2.776445, 4) - 0.05) < 1e-6);
  assert.ok(Math.abs(tCritical(0.05, 4) - 2.776445) < 1e-5);
  // jstat's incomplete beta is good to about 1e-8, plenty for p against alpha = 0.05
  assert.ok(Math.abs(tTwoSidedP(1, 1) - 0.5) < 1e-7);
  // scipy.stats.ttest_ind(log([1.2,1.3,1.25]), log([1,1.1,0.9]), equal_var=False)
  const w = welchLog([1, 1.1, 0.9], [1.2, 1.3, 1.25]);
  assert.ok(Math.abs(w.t - 3.6217349306510838) < 1e-9, `t = ${w.t}`);
  assert.ok(Math.abs(w.df - 2.6202817183587674) < 1e-9, `df = ${w.df}`);
  assert.ok(Math.abs(w.p - 0.045092107149838356) < 1e-7, `p = ${w.p}`);
  // 3 vs 3 runs can reach p < 0.05 (a rank test cannot: its smallest two-sided p is 0.1)
  assert.ok(welchLog([1, 1.01, 0.99], [1.2, 1.21, 1.19]).p < 0.001);
});

test('run-to-run drift of ±8 % with tight samples, same true level: false-alarm rate over 300 seeded draws ≤ 5 %', async (t) => {
  const draws = 300;
  let alarms = 0;
  let singleRunAlarms = 0;
  for (let s = 0; s < draws; s++) {
    const runs: [number, number] = [[3, 3], [3, 5], [5, 5]][s % 3] as [number, number];
    const [base, next] = oneMethodFiles(20_000 + s, 1.0, 1.0, 0.08, runs);
    const r = await compareResults(base, next, OPTS);
    assert.equal(r.pairs[0].basis, 'runs');
    if (r.pairs[0].verdict === 'regression' || r.exitCode !== 0) alarms++;
    // the same data judged the old way (samples of one run per side) is what produced the H100 false alarms
    const old = await compareResults(firstRunOnly(base), firstRunOnly(next), OPTS);
    if (old.pairs[0].verdict === 'regression') singleRunAlarms++;
  }
  const rate = alarms / draws;
  t.diagnostic(`false-alarm rate on run medians: ${(rate * 100).toFixed(1)} % (${alarms}/${draws}); on within-run samples: ${((singleRunAlarms / draws) * 100).toFixed(1)} %`);
  console.log(`# compare-runs: false-alarm rate ${(rate * 100).toFixed(1)} % (${alarms}/${draws}) with run medians; ${((singleRunAlarms / draws) * 100).toFixed(1)} % with within-run samples only`);
  assert.ok(rate <= 0.05, `false-alarm rate ${rate}`);
  assert.ok(singleRunAlarms / draws > 0.2, 'the within-run test should be fooled by this drift (otherwise this test proves nothing)');
});

test('a planted 20 % slowdown, 3 runs per side, ±3 % run drift: a regression in each of 50 draws, exit 1 from the CLI', async () => {
  let caught = 0;
  for (let s = 0; s < 50; s++) {
    const [base, next] = oneMethodFiles(30_000 + s, 1.0, 1.2, 0.03, [3, 3]);
    const r = await compareResults(base, next, OPTS);
    if (r.pairs[0].verdict === 'regression' && r.exitCode === 1) caught++;
  }
  assert.equal(caught, 50);
  const dir = tempDir();
  const [base, next] = oneMethodFiles(30_000, 1.0, 1.2, 0.03, [3, 3]);
  const res = cli(['compare', writeJson(dir, 'base.json', base), writeJson(dir, 'new.json', next), '--markdown', join(dir, 'sum.md')]);
  assert.equal(res.code, 1, res.stderr);
  assert.match(res.stdout, /REGRESSION/);
  assert.match(res.stdout, /3 vs 3 runs/);
  assert.match(res.stdout, /1 pair\(s\) were judged on separate process runs \(3 per side\)/);
  assert.doesNotMatch(readFileSync(join(dir, 'sum.md'), 'utf8'), /drift not accounted for|single run/);
});

test('a change inside the run-to-run spread is noise, never a regression', async () => {
  // base runs 1.00, 1.10, 0.95; new runs 1.08, 1.12, 1.03: +8 %, but the base alone spans ×1.16
  const mk = (meds: number[]) => resultFile([caseOf([method('batched-ell', 'ours', meds.flatMap((m) => [m, m, m]), { run_medians_ms: meds })])]);
  const r = await compareResults(mk([1.0, 1.1, 0.95]), mk([1.08, 1.12, 1.03]), OPTS);
  assert.equal(r.pairs[0].verdict, 'noise');
  assert.match(r.pairs[0].note, /within the run-to-run spread \(×1\.158\)/);
  assert.equal(r.exitCode, 0);
});

/** A case of ours + paper + two peers; every method of `new` is scaled by `drift`, ours also by `slow`. */
function driftCase(seed: number, drift: number, slow = 1): [ResultFile, ResultFile] {
  const next = rng(seed);
  const methods: [string, MethodResult['family'], number][] = [['batched-ell', 'ours', 0.0026], ['batched-csr', 'paper', 0.003], ['cusparse-spmm', 'peer', 0.01], ['cublas-gemm', 'peer', 0.02]];
  const side = (f: number, s: number) => {
    const levels = driftLevels(next, 3, 0.01).map((l) => l * f); // one process = one level for all methods
    return resultFile([caseOf(methods.map(([name, fam, lvl]) => runMethod(next, name, fam, fam === 'ours' ? lvl * s : lvl, levels)))]);
  };
  return [side(1, 1), side(drift, slow)];
}

test('whole-case drift of +12 %: reported as machine drift; --normalize-by-peers finds no regression', async () => {
  const [base, next] = driftCase(40_000, 1.12);
  const plain = await compareResults(base, next, OPTS);
  assert.equal(plain.drift.length, 1);
  assert.ok(Math.abs(plain.drift[0].factor - 1.12) < 0.02, `factor ${plain.drift[0].factor}`);
  assert.equal(plain.drift[0].methods, 4);
  for (const p of plain.pairs) assert.match(p.note, /machine drift: all 4 methods of the case, peers included, moved ×1\.1/);
  assert.match(renderCompareMarkdown(plain), /machine drift in spmm\/batch=100.*--normalize-by-peers/);

  const norm = await compareResults(base, next, { ...OPTS, normalizeByPeers: true });
  assert.equal(norm.exitCode, 0);
  assert.equal(norm.counts.regression, 0);
  const ours = norm.pairs.find((p) => p.method === 'batched-ell')!;
  assert.ok(Math.abs(ours.ratio! - 1) < 0.03, `normalized ratio ${ours.ratio}`);
  assert.ok(ours.peerFactor! > 1.1);
  const peer = norm.pairs.find((p) => p.method === 'cusparse-spmm')!;
  assert.equal(peer.verdict, 'unchanged', 'the peers are judged relative to each other');
  assert.ok(peer.newMedian! / peer.baseMedian! > 1.1, 'the table keeps the measured medians');

  // the CLI flag; and a real 20 % slowdown of ours on top of the drift is still caught
  const dir = tempDir();
  const ok = cli(['compare', writeJson(dir, 'b.json', base), writeJson(dir, 'n.json', next), '--normalize-by-peers']);
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
  assert.match(ok.stdout, /no regression/);
  const [b2, n2] = driftCase(40_001, 1.12, 1.2);
  const caught = await compareResults(b2, n2, { ...OPTS, normalizeByPeers: true });
  assert.equal(caught.pairs.find((p) => p.method === 'batched-ell')!.verdict, 'regression');
  assert.equal(caught.drift.length, 0, 'ours moved differently from the peers: not case-level drift');
});

test('old files without run_medians_ms still compare, with the "drift not accounted for" notice', async () => {
  const [base, next] = oneMethodFiles(50_000, 1.0, 1.0, 0.08, [3, 3]);
  const old = firstRunOnly(base);
  // one side with runs, the other without: judged on samples
  const mixed = await compareResults(old, next, OPTS);
  assert.equal(mixed.pairs[0].basis, 'samples');
  assert.equal(mixed.singleRunPairs, 1);
  const md = renderCompareMarkdown(mixed);
  assert.match(md, /1 of 1 pair\(s\) were judged on the samples of a single run per side: run-to-run drift .* not accounted for/);
  assert.match(md, /--repeat 3 or more/);
  assert.match(await renderTerminal(mixed), /note: 1 of 1 pair\(s\)/);
  // through the CLI: an old file (no run_medians_ms field at all) parses
  const dir = tempDir();
  const raw = JSON.parse(JSON.stringify(old)) as ResultFile;
  assert.ok(!('run_medians_ms' in raw.cases[0].results[0]));
  const r = cli(['compare', writeJson(dir, 'old.json', raw), writeJson(dir, 'old2.json', firstRunOnly(next))]);
  assert.ok(r.code === 0 || r.code === 1, r.stderr);
  assert.match(r.stdout, /drift not accounted for|not accounted for/);
  assert.match(r.stdout, /--repeat/);
});

test('--repeat 0 and other bad values are usage errors (exit 2); so is repeat 0 in a suite', () => {
  for (const [cmd, v] of [['spmm', '0'], ['spmm', 'abc'], ['spgemm', '1.5'], ['spgemm', '-2']] as const) {
    const args = cmd === 'spmm' ? ['spmm', '--backend', 'cpu', '--repeat', v] : ['spgemm', '--gen', 'banded:n=10,bw=1', '--backend', 'cpu', `--repeat=${v}`];
    const r = cli(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`--repeat: '${v.replace('.', '\\.')}' is not a positive integer`));
  }
  assert.throws(
    () => parseSuite({ name: 's', cases: [{ op: 'spmm', name: 'a', batch: 2, dim: 4, nnzRow: 1, repeat: 0 }] }, 'bad.json'),
    (e: unknown) => e instanceof UserError && /bad\.json: cases\[0\]\.repeat/.test(e.message),
  );
  assert.throws(() => parseSuite({ name: 's', defaults: { repeat: 'x' }, cases: [{ op: 'spmm', name: 'a', batch: 2, dim: 4, nnzRow: 1 }] }, 'd.json'), /d\.json: defaults\.repeat/);
  const ok = parseSuite({ name: 's', defaults: { repeat: 3 }, cases: [{ op: 'spmm', name: 'a', batch: 2, dim: 4, nnzRow: 1 }, { op: 'spgemm', name: 'b', gen: 'banded:n=9,bw=1' }] }, 'ok.json');
  assert.deepEqual(ok.cases.map((c) => c.repeat), [3, 3]);
  const ci = JSON.parse(readFileSync(new URL('../../reports/suites/ci-smoke.json', import.meta.url), 'utf8'));
  assert.ok(parseSuite(ci, 'ci-smoke.json').cases.every((c) => c.repeat >= 3), 'ci-smoke records several runs per case');
});

function line(method: string, status: ResultLine['status'], samples: number[], nb = 4): ResultLine {
  return {
    type: 'result', op: 'spmm', method, family: 'reference', params: { nb }, status, timed_region: 'cpu-wall', samples_ms: samples,
    flops: 1, bytes_moved: 1, peak_mem_bytes: 1, verify: { checked: true, passed: status === 'ok', max_rel_err: 0, tol: 1e-5, reference: 'cpu-f64' },
  };
}

test('mergeRuns: samples concatenated, one median per run, worst status wins, mismatched runs are an error', () => {
  const m = mergeRuns([[line('a', 'ok', [1, 2, 3]), line('b', 'ok', [5])], [line('b', 'failed', []), line('a', 'ok', [4, 6, 8])]]);
  assert.deepEqual(m[0].samples_ms, [1, 2, 3, 4, 6, 8]);
  assert.deepEqual(m[0].run_medians_ms, [2, 6]);
  assert.equal(m[1].status, 'failed');
  assert.equal(m[1].run_medians_ms, undefined);
  assert.equal(mergeRuns([[line('a', 'ok', [1])]])[0].run_medians_ms, undefined, 'one run: no run medians');
  assert.throws(() => mergeRuns([[line('a', 'ok', [1])], [line('c', 'ok', [1])]]), (e: unknown) => e instanceof RuntimeFailure && /run 2 of 2 printed a different set/.test(e.message));
});

test('spmm and spgemm --repeat 2 on the CPU backend: run_medians_ms of length 2 for every ok method', () => {
  const dir = tempDir();
  const runs = [
    ['spmm', '--batch', '3', '--dim', '8', '--nb', '3,5'],
    ['spgemm', '--gen', 'banded:n=40,bw=2'],
  ];
  for (const args of runs) {
    const out = join(dir, `${args[0]}.json`);
    const r = cli([...args, '--backend', 'cpu', '--warmup', '0', '--samples', '3', '--repeat', '2', '--json', out]);
    assert.equal(r.code, 0, r.stderr);
    const file = ResultFileSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    const ok = file.cases.flatMap((c) => c.results).filter((m) => m.status === 'ok');
    assert.ok(ok.length >= (args[0] === 'spmm' ? 4 : 1));
    for (const m of ok) {
      assert.equal(m.run_medians_ms?.length, 2, `${m.method}`);
      assert.equal(m.samples_ms.length, 6, 'all samples of both runs are kept');
      assert.ok(Math.abs(m.median_ms! - median(m.samples_ms)) < 1e-12, 'the median is over all samples');
    }
  }
});
