import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CaseResult, ResultFile } from '../src/results/schema.js';
import { compareResults, type CompareOptions } from '../src/compare/compare.js';
import { renderCompareMarkdown, renderJunit } from '../src/compare/render.js';
import { bootstrapRatioCI, mannWhitney, median, rng } from '../src/stats.js';
import { H100, jittered, method, resultFile } from './report-fixtures.js';
import { cli, tempDir, writeJson } from './report-cli.js';

const OPTS: CompareOptions = { threshold: 5, alpha: 0.05, strictEnv: false };

function oneCase(samples: number[], extra: Partial<CaseResult> = {}): CaseResult {
  return { id: 'spmm/batch=100/nb=64', op: 'spmm', label: 'b100', params: { nb: 64 }, input: {}, results: [method('batched-csr', 'ours', samples)], ...extra };
}

function pairFiles(seed: number, baseMed: number, newMed: number, spread: number, n = 30): [ResultFile, ResultFile] {
  const next = rng(seed);
  return [resultFile([oneCase(jittered(next, baseMed, spread, n))]), resultFile([oneCase(jittered(next, newMed, spread, n))])];
}


test('median and Mann-Whitney U match hand-computed values', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  const a = Array.from({ length: 10 }, (_, i) => i + 1);
  const b = a.map((x) => x + 10);
  const r = mannWhitney(a, b);
  assert.equal(r.u, 0);
  // z = (50 - 0.5) / sqrt(10·10·21/12) = 3.7418 → two-sided p = 1.83e-4 (scipy asymptotic, continuity)
  assert.ok(Math.abs(r.p - 1.826e-4) < 5e-6, `p = ${r.p}`);
  assert.equal(mannWhitney([1, 1, 1], [1, 1, 1]).p, 1); // all tied: no evidence at all
  const tied = mannWhitney([1, 2, 2, 3], [2, 3, 3, 4]); // tie correction shrinks the variance
  assert.ok(tied.p > 0 && tied.p < 1);
});

test('bootstrap CI is deterministic for a seed and brackets the ratio', () => {
  const next = rng(7);
  const a = jittered(next, 1, 0.05, 30);
  const b = jittered(next, 1.2, 0.05, 30);
  const c1 = bootstrapRatioCI(a, b, { seed: 42 });
  const c2 = bootstrapRatioCI(a, b, { seed: 42 });
  assert.deepEqual(c1, c2);
  const ratio = median(b) / median(a);
  assert.ok(c1[0] <= ratio && ratio <= c1[1], `${c1} vs ${ratio}`);
  assert.ok(c1[0] > 1.1 && c1[1] < 1.3);
});

test('a planted 10 % slowdown with clear samples is a regression (exit 1)', async () => {
  const [base, next] = pairFiles(1, 1.0, 1.1, 0.02);
  const r = await compareResults(base, next, OPTS);
  assert.equal(r.pairs.length, 1);
  assert.equal(r.pairs[0].verdict, 'regression');
  assert.ok(r.pairs[0].ratio! > 1.07 && r.pairs[0].ratio! < 1.13);
  assert.ok(r.pairs[0].p! < 0.001);
  assert.equal(r.exitCode, 1);
  // the same with the threshold above the change: not a regression
  const lenient = await compareResults(base, next, { ...OPTS, threshold: 20 });
  assert.equal(lenient.pairs[0].verdict, 'unchanged');
  assert.equal(lenient.exitCode, 0);
});

test('power: a 10 % slowdown (±2 % noise, 30 samples) is caught in every one of 50 seeded draws', async () => {
  let caught = 0;
  for (let s = 0; s < 50; s++) {
    const [base, next] = pairFiles(1000 + s, 1.0, 1.1, 0.02);
    if ((await compareResults(base, next, OPTS)).pairs[0].verdict === 'regression') caught++;
  }
  assert.equal(caught, 50);
});

test('pure noise of ±5 %: false-alarm rate over 250 seeded draws is at most 5 %', async (t) => {
  const draws = 250;
  let alarms = 0;
  let significant = 0;
  for (let s = 0; s < draws; s++) {
    const [base, next] = pairFiles(5000 + s, 1.0, 1.0, 0.05, 20 + (s % 3) * 10);
    const r = await compareResults(base, next, OPTS);
    if (r.exitCode !== 0) alarms++;
    if (r.pairs[0].p! < OPTS.alpha) significant++;
  }
  const rate = alarms / draws;
  t.diagnostic(`false-alarm rate ${(rate * 100).toFixed(2)} % (${alarms}/${draws}); Mann-Whitney p < 0.05 in ${((significant / draws) * 100).toFixed(1)} %`);
  assert.ok(rate <= 0.05, `false-alarm rate ${rate}`);
  // The test itself is calibrated: under the null, p < alpha about alpha of the time (not never).
  assert.ok(significant / draws > 0.01 && significant / draws < 0.1, `significant in ${significant}/${draws}`);
});

test('a change larger than the threshold but inside a wide spread is noise, not a regression', async () => {
  const [base, next] = pairFiles(3, 1.0, 1.08, 0.6, 10);
  const r = await compareResults(base, next, OPTS);
  assert.equal(r.pairs[0].verdict, 'noise');
  assert.equal(r.exitCode, 0);
});

test('a clear speed-up is an improvement (exit 0)', async () => {
  const [base, next] = pairFiles(4, 1.0, 0.8, 0.02);
  const r = await compareResults(base, next, OPTS);
  assert.equal(r.pairs[0].verdict, 'improvement');
  assert.equal(r.exitCode, 0);
});

test('missing cases and methods are reported on both sides without a regression', async () => {
  const next = rng(9);
  const s = () => jittered(next, 1, 0.02, 20);
  const mk = (id: string, methods: string[]): CaseResult => ({ id, op: 'spmm', label: id, params: {}, input: {}, results: methods.map((m) => method(m, 'ours', s())) });
  const base = resultFile([mk('A', ['x', 'y']), mk('B', ['x'])]);
  const neu = resultFile([mk('A', ['x', 'z']), mk('C', ['x'])]);
  const r = await compareResults(base, neu, OPTS);
  const v = Object.fromEntries(r.pairs.map((p) => [`${p.caseId}:${p.method}`, p.verdict]));
  assert.deepEqual(v, { 'A:x': 'unchanged', 'A:y': 'missing-new', 'A:z': 'missing-base', 'B:x': 'missing-new', 'C:x': 'missing-base' });
  assert.match(r.pairs.find((p) => p.caseId === 'B')!.note, /case not in the new file/);
  assert.equal(r.exitCode, 0);
  const junit = renderJunit(r);
  assert.equal((junit.match(/<testcase /g) ?? []).length, 5);
  assert.equal((junit.match(/<skipped /g) ?? []).length, 4);
});

test('a method that fails verification in the new file is a failure (exit 1)', async () => {
  const next = rng(11);
  const base = resultFile([oneCase(jittered(next, 1, 0.02, 20))]);
  const neu = resultFile([{ ...oneCase([]), results: [method('batched-csr', 'ours', [], { status: 'failed' })] }]);
  const r = await compareResults(base, neu, OPTS);
  assert.equal(r.pairs[0].verdict, 'failed');
  assert.match(r.pairs[0].note, /verification failed/);
  assert.equal(r.exitCode, 1);
  assert.match(renderCompareMarkdown(r), /🔴 failed/);
  assert.match(renderJunit(r), /<failure type="failed"/);
});

test('CLI: regression exits 1 and writes Markdown and JUnit; unchanged exits 0', () => {
  const dir = tempDir();
  const [base, next] = pairFiles(21, 1.0, 1.1, 0.02);
  const b = writeJson(dir, 'base.json', base);
  const n = writeJson(dir, 'new.json', next);
  const r = cli(['compare', b, n, '--markdown', join(dir, 'sum.md'), '--junit', join(dir, 'junit.xml')]);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /REGRESSION/);
  const md = readFileSync(join(dir, 'sum.md'), 'utf8');
  assert.match(md, /## spbench compare: 🔴 regression/);
  assert.match(md, /\| Case \| Method \| Base ms \| New ms \| Ratio \| 95 % CI \| p \| Verdict \| Note \|/);
  const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
  assert.match(junit, /<testcase classname="spmm\/batch=100\/nb=64" name="batched-csr"[^>]*><failure type="regression"/);
  const same = cli(['compare', b, b]);
  assert.equal(same.code, 0, same.stderr);
  assert.match(same.stdout, /no regression: 1 unchanged/);
});

test('CLI: --markdown without a file appends to $GITHUB_STEP_SUMMARY', () => {
  const dir = tempDir();
  const [base] = pairFiles(22, 1.0, 1.0, 0.02);
  const b = writeJson(dir, 'base.json', base);
  const summary = join(dir, 'summary.md');
  const r = cli(['compare', b, b, '--markdown'], { GITHUB_STEP_SUMMARY: summary });
  assert.equal(r.code, 0, r.stderr);
  assert.match(readFileSync(summary, 'utf8'), /✅ no regression/);
});

test('different device kinds are refused (exit 2) unless --across-devices, which says the verdict is about devices; --strict-env still refuses', () => {
  const dir = tempDir();
  const [base, next] = pairFiles(23, 1.0, 1.0, 0.02);
  const other = { ...next, device: { ...H100, name: 'NVIDIA A100-SXM4-80GB', cc: '8.0' }, env: { ...next.env!, cuda: { runtime: '12.4', driver: '12.4' } } };
  const b = writeJson(dir, 'base.json', base);
  const n = writeJson(dir, 'new.json', other);
  const refused = cli(['compare', b, n]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /base\.json \(cuda NVIDIA H100 80GB HBM3\) and .*new\.json \(cuda NVIDIA A100-SXM4-80GB\) come from different device kinds.*give --across-devices/);
  const warn = cli(['compare', b, n, '--across-devices', '--markdown', join(dir, 'across.md')]);
  assert.equal(warn.code, 0, warn.stderr);
  assert.match(warn.stderr, /comparing devices, not code: .*base\.json ran on cuda NVIDIA H100 80GB HBM3, .*new\.json on cuda NVIDIA A100-SXM4-80GB/);
  assert.match(warn.stdout, /^comparing devices, not code/);
  assert.match(readFileSync(join(dir, 'across.md'), 'utf8'), /^> \[!NOTE\]\n> comparing devices, not code/);
  assert.match(warn.stderr, /WARNING: environments differ.*device differs: base NVIDIA H100 80GB HBM3, new NVIDIA A100-SXM4-80GB/);
  assert.match(warn.stderr, /CUDA runtime differs: base 13.0, new 12.4/);
  const strict = cli(['compare', b, n, '--strict-env', '--across-devices']);
  assert.equal(strict.code, 2);
  assert.match(strict.stderr, /different environments \(--strict-env\).*device differs/);
});

test('malformed input files exit 2 with a message naming the file and the field', () => {
  const dir = tempDir();
  const [base] = pairFiles(24, 1.0, 1.0, 0.02);
  const good = writeJson(dir, 'good.json', base);
  const notJson = writeJson(dir, 'broken.json', '{"schema": ');
  const bad = structuredClone(base) as unknown as { cases: { results: { samples_ms: unknown }[] }[] };
  bad.cases[0].results[0].samples_ms = 'fast';
  const badField = writeJson(dir, 'badfield.json', bad);
  const wrongSchema = writeJson(dir, 'schema.json', { ...base, schema: 'other/9' });
  const cases: [string[], RegExp][] = [
    [['compare', good, notJson], /broken\.json is not JSON/],
    [['compare', badField, good], /badfield\.json.*cases\[0\]\.results\[0\]\.samples_ms: expected array, received string/],
    [['compare', good, wrongSchema], /schema\.json: schema: expected "spbench-results\/1", found "other\/9"/],
    [['compare', good, join(dir, 'absent.json')], /cannot read result file .*absent\.json: no such file/],
    [['compare', good, good, '--threshold', 'abc'], /--threshold must be a number/],
  ];
  for (const [args, re] of cases) {
    const junit = join(dir, 'out.xml');
    const r = cli([...args, '--junit', junit]);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, re);
    assert.equal(existsSync(junit), false, 'no output file on bad input');
  }
});

test('duplicate case ids in a file are an input error', async () => {
  const [base] = pairFiles(25, 1, 1, 0.02);
  const dup = { ...base, cases: [base.cases[0], base.cases[0]] };
  await assert.rejects(compareResults(dup, base, OPTS, { base: 'dup.json', new: 'b.json' }), /dup\.json: case id .* appears twice/);
});

test("a regression in a case whose new run timed one kernel twice far apart (auto and its choice) says so; the verdict stands", async () => {
  const next = rng(7);
  const plan = { cols_per_thread: 2 };
  const mk = (csr: number, autoMed: number) =>
    resultFile([
      oneCase([], {
        results: [
          method('batched-csr', 'ours', jittered(next, csr, 0.01, 30), { info: { ...plan, calls_per_graph: 5 } }),
          method('auto', 'ours', jittered(next, autoMed, 0.01, 30), { info: { ...plan, calls_per_graph: 3, choice: 'batched-csr' } }),
        ],
      }),
    ]);
  const r = await compareResults(mk(1.0, 1.0), mk(1.5, 1.0), OPTS);
  const csr = r.pairs.find((p) => p.method === 'batched-csr')!;
  assert.equal(csr.verdict, 'regression');
  assert.match(csr.note ?? '', /new run: auto ran batched-csr's kernel and plan .* apart\): one of the two timings was disturbed/);
  assert.equal(r.exitCode, 1);
  // both runs agree with themselves: no such note
  const clean = await compareResults(mk(1.0, 1.0), mk(1.5, 1.5), OPTS);
  assert.ok(clean.pairs.every((p) => !/disturbed/.test(p.note ?? '')));
});
