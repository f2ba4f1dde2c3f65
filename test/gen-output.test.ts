import assert from 'node:assert/strict';
import { test } from 'node:test';
import { batchFileNames, planOutput } from '../src/matrix/generate/write.js';
import { UserError } from '../src/util/errors.js';

test('planOutput: the name, --format and the count decide the output', () => {
  assert.deepEqual(planOutput('b.spb', undefined, 100, false), { kind: 'spb', path: 'b.spb' });
  assert.deepEqual(planOutput('B.SPB', undefined, 1, false), { kind: 'spb', path: 'B.SPB' });
  assert.deepEqual(planOutput('r.mtx', undefined, 1, false), { kind: 'mtx', path: 'r.mtx' });
  assert.deepEqual(planOutput('out/', undefined, 10, false), { kind: 'mtx-dir', dir: 'out' });
  assert.deepEqual(planOutput('out', undefined, 10, true), { kind: 'mtx-dir', dir: 'out' });
  assert.deepEqual(planOutput('out', 'mtx', 10, false), { kind: 'mtx-dir', dir: 'out' });
  assert.deepEqual(planOutput('out/', 'mtx', 1, false), { kind: 'mtx-dir', dir: 'out' });
  assert.deepEqual(planOutput('data', 'spb', 3, false), { kind: 'spb', path: 'data' });
  assert.deepEqual(planOutput('one', 'mtx', 1, false), { kind: 'mtx', path: 'one' });
});

test('planOutput errors say what to do', () => {
  const cases: [string, 'mtx' | 'spb' | undefined, number, boolean, RegExp][] = [
    ['b.mtx', undefined, 5, false, /a \.mtx file holds one matrix; write the 5 matrices to a directory \(-o dir\/\) or to a \.spb file/],
    ['noext', undefined, 1, false, /cannot tell the output format/],
    ['out/', 'spb', 5, false, /a \.spb output is one file/],
    ['existing', 'spb', 5, true, /a \.spb output is one file/],
  ];
  for (const [path, fmt, count, isDir, why] of cases) {
    assert.throws(() => planOutput(path, fmt, count, isDir), (e: unknown) => e instanceof UserError && e.message.startsWith(`-o ${path}`) && why.test(e.message), path);
  }
});

test('batchFileNames are zero-padded so name order is batch order', () => {
  assert.deepEqual(batchFileNames(1), ['m0.mtx']);
  assert.deepEqual(batchFileNames(3), ['m0.mtx', 'm1.mtx', 'm2.mtx']);
  const names = batchFileNames(101);
  assert.equal(names[0], 'm000.mtx');
  assert.equal(names[100], 'm100.mtx');
  assert.deepEqual([...names].sort(), names);
  assert.equal(batchFileNames(10)[9], 'm9.mtx');
});
