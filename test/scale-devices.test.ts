// run --devices on the CPU backend: two pseudo-devices run as two worker processes; a killed worker
// turns its case into an error naming the device, and the other device finishes the suite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ResultFile } from '../src/results/schema.js';
import { parseDevices, threadShare } from '../src/scale/devices.js';
import { cli, tempDir, writeJson } from './report-cli.js';
import { TINY_SUITE } from './scale-fixtures.js';

const DIR = tempDir();
const SUITE = writeJson(DIR, 'tiny.json', TINY_SUITE);
const read = (p: string): ResultFile => ResultFile.parse(JSON.parse(readFileSync(p, 'utf8')));

test('--devices: a list, or all from the GPU count (one worker on device 0 without a GPU); threads shared evenly', async () => {
  assert.deepEqual(await parseDevices('0,2', async () => 8), [0, 2]);
  assert.deepEqual(await parseDevices('all', async () => 4), [0, 1, 2, 3]);
  assert.deepEqual(await parseDevices('all', async () => null), [0]);
  await assert.rejects(parseDevices('0,0', async () => 2), /device 0 is listed twice/);
  await assert.rejects(parseDevices('gpu1', async () => 2), /--devices: expected "all" or device numbers/);
  assert.equal(threadShare(2, undefined, 16), 8);
  assert.equal(threadShare(3, '8', 64), 2);
  assert.equal(threadShare(32, undefined, 16), 1);
});

test('CPU backend, --devices 0,1: two workers, every case once with its device, the same cases as one process', () => {
  const one = cli(['run', SUITE, '--backend', 'cpu', '--json', join(DIR, 'one.json')]);
  assert.equal(one.code, 0, one.stderr);
  const two = cli(['run', SUITE, '--backend', 'cpu', '--devices', '0,1', '--json', join(DIR, 'two.json')]);
  assert.equal(two.code, 0, two.stderr);
  assert.match(two.stderr, /4 case\(s\) on 2 device worker\(s\) \(devices 0, 1\)/);
  const file = read(join(DIR, 'two.json'));
  assert.deepEqual(file.cases.map((c) => c.id), read(join(DIR, 'one.json')).cases.map((c) => c.id), 'suite order, no case lost or doubled');
  const used = new Set(file.cases.map((c) => c.params.device));
  assert.deepEqual([...used].sort(), [0, 1], 'both workers ran cases');
  assert.ok(file.cases.every((c) => c.results.every((r) => r.status === 'ok')));
});

test('a worker that dies: its case is an error naming the device, the others finish on device 0 (exit 4, file kept)', () => {
  const out = join(DIR, 'killed.json');
  const r = cli(['run', SUITE, '--backend', 'cpu', '--devices', '0,1', '--json', out], { SPBENCH_TEST_KILL_DEVICE: '1' });
  assert.equal(r.code, 4, r.stderr);
  assert.match(r.stderr, /spbench: 1 suite case\(s\) failed: (\w): device 1: the worker died \(killed by SIGKILL\) while running case \1; device 1 takes no more cases/);
  const file = read(out);
  const lost = /failed: (\w):/.exec(r.stderr)![1];
  const names = new Set(file.cases.map((c) => c.params.suite_case));
  assert.deepEqual([...names].sort(), ['a', 'b', 'c', 'd'].filter((n) => n !== lost));
  assert.ok(file.cases.every((c) => c.params.device === 0));
});

test('run --cases picks suite cases by name; an unknown name exits 2 naming it', () => {
  const r = cli(['run', SUITE, '--backend', 'cpu', '--cases', 'c', '--device', '1', '--json', join(DIR, 'c.json')]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(read(join(DIR, 'c.json')).cases.map((c) => c.params.suite_case), ['c']);
  const bad = cli(['run', SUITE, '--backend', 'cpu', '--cases', 'zz']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--cases: suite "tiny" has no case "zz" \(it has a, b, c, d\)/);
});
