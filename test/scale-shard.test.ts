// Shards (run --shard) and merge: the partition is stable and balanced, the scheduler variables
// give the right shard, and on the CPU backend the shards of a suite merge into the full run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { schedulerShard } from '../src/config.js';
import { ResultFile } from '../src/results/schema.js';
import { parseSuite } from '../src/suite/load.js';
import { caseCost, specProducts } from '../src/scale/cost.js';
import { parseShard, partition, shardCases } from '../src/scale/shard.js';
import { resolveShard } from '../src/scale/select.js';
import { cli, tempDir, writeJson } from './report-cli.js';
import { TINY_SUITE } from './scale-fixtures.js';

const DIR = tempDir();

test('partition: longest first onto the least-loaded bin, ties by name; every item exactly once', () => {
  const items = [['a', 5], ['b', 5], ['c', 4], ['d', 3], ['e', 3], ['f', 1]] as const;
  const bins = partition([...items], 2, (x) => x[1], (x) => x[0]).map((b) => b.map((x) => x[0]));
  assert.deepEqual(bins, [['a', 'c', 'f'], ['b', 'd', 'e']]); // loads 10 and 11
  // the input order does not matter (stable across machines and suite edits that only reorder)
  const again = partition([...items].reverse(), 2, (x) => x[1], (x) => x[0]).map((b) => b.map((x) => x[0]));
  assert.deepEqual(again, bins);
});

test('the cost estimate grows with the work a request asks for', () => {
  const suite = parseSuite({ name: 's', cases: [
    { op: 'spmm', name: 'small', batch: 10, dim: 32, nb: 16 },
    { op: 'spmm', name: 'big', batch: 1000, dim: 64, nb: [64, 128] },
    { op: 'spmm', name: 'big2', batch: 1000, dim: 64, nb: [64, 128], precision: ['f32', 'f64'] },
    { op: 'spgemm', name: 'r16', gen: 'rmat:scale=16,ef=8' },
    { op: 'spgemm', name: 'r18', gen: 'rmat:scale=18,ef=8' },
  ] }, join(DIR, 's.json'));
  const cost = Object.fromEntries(suite.cases.map((c) => [c.name, caseCost(c)]));
  assert.ok(cost.small < cost.big && cost.big < cost.big2, JSON.stringify(cost));
  assert.ok(cost.r16 < cost.r18);
  assert.ok(specProducts('stencil:dims=3,n=40,points=27') > specProducts('stencil:dims=2,n=40,points=5'));
});

test('--shard K/N is checked; a shard that would be empty is refused naming the suite', () => {
  assert.deepEqual(parseShard('2/4'), { index: 2, count: 4 });
  assert.throws(() => parseShard('0/4'), /--shard: "0\/4" needs 1 ≤ K ≤ N/);
  assert.throws(() => parseShard('5/4'), /needs 1 ≤ K ≤ N/);
  assert.throws(() => parseShard('two'), /--shard: expected K\/N/);
  const suite = parseSuite({ name: 'two', cases: [{ op: 'spmm', name: 'a' }, { op: 'spmm', name: 'b' }] }, join(DIR, 't.json'));
  assert.throws(() => shardCases(suite, { index: 3, count: 3 }), /suite "two" has only 2 case\(s\).*use at most 2/);
});

test('--shard auto reads SPBENCH_SHARD, Slurm arrays from 0 or 1, and GitLab', () => {
  assert.deepEqual(resolveShard('auto', { SPBENCH_SHARD: '3/5' }), { index: 3, count: 5 });
  // Slurm: --array=0-3 and --array=1-4 both give shards 1..4
  assert.deepEqual(resolveShard('auto', { SLURM_ARRAY_TASK_ID: '0', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_COUNT: '4' }), { index: 1, count: 4 });
  assert.deepEqual(resolveShard('auto', { SLURM_ARRAY_TASK_ID: '3', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_COUNT: '4' }), { index: 4, count: 4 });
  assert.deepEqual(resolveShard('auto', { SLURM_ARRAY_TASK_ID: '4', SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_COUNT: '4' }), { index: 4, count: 4 });
  assert.throws(() => resolveShard('auto', { SLURM_ARRAY_TASK_ID: '2', SLURM_ARRAY_TASK_COUNT: '4' }), /SLURM_ARRAY_TASK_MIN is not/);
  assert.deepEqual(resolveShard('auto', { CI_NODE_INDEX: '2', CI_NODE_TOTAL: '3' }), { index: 2, count: 3 });
  assert.throws(() => resolveShard('auto', {}), /--shard auto: none of SPBENCH_SHARD/);
  assert.throws(() => resolveShard('auto', { SPBENCH_SHARD: '4/3' }), /--shard auto \(from SPBENCH_SHARD\): "4\/3" needs/);
  assert.equal(schedulerShard({}), null);
});

const SUITE = TINY_SUITE;
const read = (p: string): ResultFile => ResultFile.parse(JSON.parse(readFileSync(p, 'utf8')));

test('CPU backend: shards 1/3..3/3 together are the full run, merge joins them, a missing or doubled part exits 1', () => {
  const suite = writeJson(DIR, 'tiny.json', SUITE);
  const env = { SPBENCH_COMMIT: 'a'.repeat(40) };
  const full = cli(['run', suite, '--backend', 'cpu', '--json', join(DIR, 'full.json')], env);
  assert.equal(full.code, 0, full.stderr);
  const parts = [1, 2, 3].map((k) => {
    const p = join(DIR, `part-${k}.json`);
    const r = cli(['run', suite, '--backend', 'cpu', '--shard', `${k}/3`, '--json', p], env);
    assert.equal(r.code, 0, r.stderr);
    return p;
  });
  const ids = parts.flatMap((p) => read(p).cases.map((c) => c.id));
  const fullIds = read(join(DIR, 'full.json')).cases.map((c) => c.id);
  assert.equal(new Set(ids).size, ids.length, 'no case in two shards');
  assert.deepEqual([...ids].sort(), [...fullIds].sort());
  const rec = read(parts[0]).shard!;
  assert.deepEqual(rec.suite_cases, ['a', 'b', 'c', 'd']);
  assert.equal(rec.suite, 'tiny');
  assert.deepEqual([rec.index, rec.count], [1, 3]);

  const all = join(DIR, 'all.json');
  const merged = cli(['merge', ...parts, '-o', all]);
  assert.equal(merged.code, 0, merged.stderr);
  const file = read(all); // valid against the schema
  assert.deepEqual(file.cases.map((c) => c.id), fullIds, 'suite order, as one run');
  assert.equal(file.shard, undefined);
  const report = cli(['report', all]);
  assert.equal(report.code, 0, report.stderr);
  const cmp = cli(['compare', join(DIR, 'full.json'), all]);
  assert.notEqual(cmp.code, 2, cmp.stderr);

  const out = join(DIR, 'missing.json');
  const missing = cli(['merge', parts[0], parts[2], '-o', out]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /suite case\(s\) missing:/);
  for (const name of read(parts[1]).shard!.cases) assert.match(missing.stderr, new RegExp(`\\n  ${name} \\(its shard is not among the parts: have 1, 3 of 3\\)`));
  assert.equal(existsSync(out), false, 'nothing written when parts are missing');
  const twice = cli(['merge', ...parts, parts[1], '-o', out]);
  assert.equal(twice.code, 1);
  assert.match(twice.stderr, /shard 2\/3 is given twice/);
  assert.equal(existsSync(out), false);
});

test('merge refuses parts of different suites or commits, and files not written by --shard (exit 2)', () => {
  const a = writeJson(DIR, 'suite-a.json', SUITE);
  const b = writeJson(DIR, 'suite-b.json', { ...SUITE, name: 'other' });
  const run = (suite: string, shard: string, out: string, commit: string) => {
    const r = cli(['run', suite, '--backend', 'cpu', '--shard', shard, '--json', join(DIR, out)], { SPBENCH_COMMIT: commit.repeat(40) });
    assert.equal(r.code, 0, r.stderr);
    return join(DIR, out);
  };
  const a1 = run(a, '1/2', 'a1.json', 'a');
  const b2 = run(b, '2/2', 'b2.json', 'a');
  const a2other = run(a, '2/2', 'a2c.json', 'b');
  const out = join(DIR, 'never.json');
  const suites = cli(['merge', a1, b2, '-o', out]);
  assert.equal(suites.code, 2);
  assert.match(suites.stderr, /a1\.json and .*b2\.json come from different suites \(tiny vs other\)/);
  const commits = cli(['merge', a1, a2other, '-o', out]);
  assert.equal(commits.code, 2);
  assert.match(commits.stderr, /come from different commits \(a{40} vs b{40}\)/);
  const full = cli(['run', a, '--backend', 'cpu', '--json', join(DIR, 'whole.json')]);
  assert.equal(full.code, 0, full.stderr);
  const unsharded = cli(['merge', join(DIR, 'whole.json'), a1, '-o', out]);
  assert.equal(unsharded.code, 2);
  assert.match(unsharded.stderr, /whole\.json was not written by run --shard/);
  assert.equal(existsSync(out), false);
});
