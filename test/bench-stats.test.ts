import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ResultLine } from '../src/native/protocol.js';
import { toMethodResult } from '../src/bench/figures.js';
import { summarize } from '../src/stats.js';
import { resultLine } from './bench-helpers.js';

const near = (a: number, b: number, eps = 1e-9) => assert.ok(Math.abs(a - b) <= eps, `${a} ≉ ${b}`);

const line = (over: Partial<ResultLine> = {}) => resultLine({ samples_ms: [1, 1, 1], ...over });

test('summarize: median, quartiles (linear interpolation), min/max, relative std dev', () => {
  const s = summarize([4, 1, 3, 2]);
  assert.equal(s.median, 2.5);
  assert.equal(s.q1, 1.75);
  assert.equal(s.q3, 3.25);
  assert.equal(s.min, 1);
  assert.equal(s.max, 4);
  near(s.stdrel, Math.sqrt(5 / 3) / 2.5);
});

test('summarize: odd count takes the middle sample; one sample has no spread', () => {
  const s = summarize([5, 9, 1, 7, 3]);
  assert.equal(s.median, 5);
  assert.equal(s.q1, 3);
  assert.equal(s.q3, 7);
  const one = summarize([2]);
  assert.deepEqual([one.median, one.q1, one.q3, one.stdrel], [2, 2, 2, 0]);
  assert.throws(() => summarize([]), /no samples/);
});

test('toMethodResult: GFLOPS = flops / median / 1e6 (ms), GB/s likewise', () => {
  const r = toMethodResult(line({ samples_ms: [0.5, 1, 2] }));
  assert.equal(r.median_ms, 1);
  near(r.gflops!, 2);
  near(r.bandwidth_gbs!, 3);
  assert.deepEqual(r.samples_ms, [0.5, 1, 2]);
  assert.equal(r.peak_mem_bytes, 4096);
});

test('toMethodResult: failed, error and not-applicable results carry no speed figure', () => {
  for (const status of ['failed', 'error', 'not_applicable'] as const) {
    const r = toMethodResult(line({ status, reason: 'why', verify: { checked: true, passed: false, max_rel_err: 1, tol: 1e-4, reference: 'cpu-f64', detail: 'row 3' } }));
    assert.equal(r.status, status);
    assert.equal(r.median_ms, null);
    assert.equal(r.gflops, null);
    assert.equal(r.bandwidth_gbs, null);
    assert.equal(r.stdrel, null);
    assert.equal(r.reason, 'why');
  }
});

test('toMethodResult: a zero median (below timer resolution) gives no rate rather than Infinity', () => {
  const r = toMethodResult(line({ samples_ms: [0, 0, 0] }));
  assert.equal(r.median_ms, 0);
  assert.equal(r.gflops, null);
  assert.equal(r.bandwidth_gbs, null);
});
