// Dashboard exports of a result file, validated against the shapes their tools document: Bencher Metric Format
// (an object of benchmarks, each an object of measures with value and optional lower_value/upper_value) and
// github-action-benchmark's custom JSON (an array of {name, unit, value, range?, extra?}).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { z } from 'zod';
import { toBenchmarkAction, toBmf } from '../src/report/exports.js';
import { renderReport, parseFormat } from '../src/report/index.js';
import { sampleFile } from './report-fixtures.js';
import { cli, tempDir, writeJson } from './report-cli.js';

const Measure = z.strictObject({ value: z.number().finite(), lower_value: z.number().finite().optional(), upper_value: z.number().finite().optional() });
const BmfShape = z.record(z.string().min(1), z.record(z.string().regex(/^[a-z0-9-]+$/), Measure));
const ActionShape = z.array(z.strictObject({ name: z.string().min(1), unit: z.string().min(1), value: z.number().finite(), range: z.string().optional(), extra: z.string().optional() }));

test('bmf: one benchmark a timed method, latency in ns with the quartiles as bounds, GFLOPS and peak memory', () => {
  const file = sampleFile(3);
  const bmf = BmfShape.parse(JSON.parse(renderReport(file, parseFormat('bmf'))));
  const ok = file.cases.flatMap((c) => c.results.filter((r) => r.status === 'ok').map((r) => ({ c, r })));
  assert.equal(Object.keys(bmf).length, ok.length, 'failed and not-applicable methods are left out');
  for (const { c, r } of ok) {
    const m = bmf[`${c.id}/${r.method}`];
    assert.ok(m, `${c.id}/${r.method}`);
    assert.equal(m.latency.value, (r.median_ms as number) * 1e6);
    assert.ok((m.latency.lower_value as number) <= m.latency.value && m.latency.value <= (m.latency.upper_value as number));
    assert.equal(m.gflops.value, r.gflops);
    assert.equal(m['peak-memory-bytes'].value, r.peak_mem_bytes);
  }
  assert.ok(!Object.keys(bmf).some((k) => k.endsWith('/tf-sparse-tensor') && k.includes('nb=64/')), 'the failed method has no entry');
});

test('benchmark-action: smaller-is-better ms entries with quartile range and the check in extra', () => {
  const file = sampleFile(4);
  const entries = ActionShape.parse(toBenchmarkAction(file));
  const names = entries.map((e) => e.name);
  assert.equal(new Set(names).size, names.length, 'names are unique (the tool keys history on them)');
  const e = entries.find((x) => x.name.endsWith('/hash-spgemm'));
  assert.ok(e);
  assert.equal(e.unit, 'ms');
  assert.match(e.range ?? '', /^\d[\d.e-]*\.\.\d[\d.e-]* \(quartiles\)$/);
  assert.match(e.extra ?? '', /GFLOPS; peak \d+ B; verified vs cpu-f64; NVIDIA H100 80GB HBM3; commit abcdef1234567$/);
  assert.deepEqual(toBmf({ ...file, cases: [] }), {});
});

test('spbench report --format bmf / benchmark-action write valid files; an unknown format names the choices', () => {
  const dir = tempDir();
  const src = writeJson(dir, 'r.json', sampleFile(5));
  for (const [format, shape] of [['bmf', BmfShape], ['benchmark-action', ActionShape]] as const) {
    const out = join(dir, `${format}.json`);
    const r = cli(['report', src, '--format', format, '-o', out]);
    assert.equal(r.code, 0, r.stderr);
    shape.parse(JSON.parse(readFileSync(out, 'utf8')));
  }
  const bad = cli(['report', src, '--format', 'bencher']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--format must be one of md, csv, html, svg, bmf, benchmark-action \(got "bencher"\)/);
});
