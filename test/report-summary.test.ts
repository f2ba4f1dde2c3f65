// The report's headline (best of ours against the fastest peer, auto against the best of ours), and the README's
// figures for the committed H100 baselines computed from those files, so that neither goes stale.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CaseResult, MethodResult } from '../src/results/schema.js';
import { readResultFile } from '../src/results/read.js';
import { renderReport } from '../src/report/index.js';
import { oursVsPeers, summaryLines } from '../src/report/summary.js';
import { method, resultFile } from './report-fixtures.js';

const t = (us: number) => [us / 1000, us / 1000, us / 1000];
const cell = (id: string, results: MethodResult[], mode = 'graph'): CaseResult => ({
  id, op: 'spmm', label: id, params: { nb: 64, precision: 'f32', mode }, input: { source: 'generated', seed: 1 }, results,
});
const cases = [
  // ours 2x ahead; auto picked the slower kernel of ours (1.5x: outside 10 %)
  cell('a', [method('batched-ell', 'ours', t(1)), method('batched-csr-flat', 'ours', t(1.5)), method('auto', 'ours', t(1.5)), method('cublas-strided', 'peer', t(2))]),
  // ours behind (0.5x), auto within 10 %; the failed peer does not count
  cell('b', [method('batched-tile', 'ours', t(4)), method('auto', 'ours', t(4.2)), method('cublas-strided', 'peer', t(2)), method('cusparse-strided', 'peer', [], { status: 'failed' })]),
  // level (1.0x): counts as ahead or level; a paper method is not ours
  cell('c', [method('batched-ell', 'ours', t(3)), method('swa-csr', 'paper', t(0.5)), method('cusparse-blockdiag', 'peer', t(3))]),
  // no peer ran: not a cell of the comparison, but auto still counts
  cell('d', [method('batched-ell', 'ours', t(1)), method('auto', 'ours', t(1.05)), method('cusparse-strided', 'peer', [], { status: 'not_applicable', reason: 'mixed' })]),
];

test('oursVsPeers: counts, geometric mean and auto within 10 % of the best of ours', () => {
  const s = oursVsPeers(cases);
  assert.ok(s);
  assert.equal(s.cells, 3);
  assert.equal(s.ahead, 2);
  assert.ok(Math.abs(s.geomean - 1) < 1e-12, `geomean of 2, 0.5 and 1 is 1, got ${s.geomean}`);
  assert.equal(s.autoCells, 3);
  assert.equal(s.autoWithin, 2);
  assert.equal(oursVsPeers([cell('x', [method('cpu-csr', 'reference', t(1))])]), null);
});

test('summaryLines: one sentence, or one a timed mode where the file mixes them; in the Markdown and HTML reports', () => {
  assert.deepEqual(summaryLines(cases), [
    'The best of ours against the fastest peer: ahead or level in 2 of 3 cases, geometric mean 1.00×; `auto` within 10 % of the best of ours in 2 of 3.',
  ]);
  const mixed = [...cases, cell('e', [method('batched-ell', 'ours', t(10)), method('cublas-strided', 'peer', t(30))], 'e2e')];
  const lines = summaryLines(mixed);
  assert.equal(lines.length, 2);
  assert.match(lines[0], /\(graph mode\): ahead or level in 2 of 3 cases/);
  assert.match(lines[1], /\(e2e mode\): ahead or level in 1 of 1 cases, geometric mean 3\.00×\.$/);
  assert.match(renderReport(resultFile(cases), 'md'), /\nThe best of ours against the fastest peer: ahead or level in 2 of 3 cases/);
  assert.match(renderReport(resultFile(cases), 'html'), /<p class="summary">The best of ours against the fastest peer: ahead or level in 2 of 3 cases/);
  assert.doesNotMatch(renderReport(resultFile([cell('x', [method('cpu-csr', 'reference', t(1))])]), 'md'), /best of ours/);
});

const root = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));

test("README's figures for the SpMM baselines are what the committed H100 and H200 files say", async () => {
  const readme = readFileSync(root('README.md'), 'utf8').replace(/\s+/g, ' ');
  const wide = oursVsPeers((await readResultFile(root('reports/baselines/h100/spmm-wide.json'))).cases);
  assert.ok(wide);
  const commit = (await readResultFile(root('reports/baselines/h100/spmm-wide.json'))).spbench.commit?.slice(0, 7) ?? '?';
  assert.ok(readme.includes(`commit ${commit}): ours ahead of the fastest peer in ${wide.ahead} of ${wide.cells} cells`), `README: spmm-wide of ${commit}, ${wide.ahead} of ${wide.cells}`);
  assert.ok(readme.includes(`geometric mean ${wide.geomean.toFixed(2)}×; \`auto\` (the planner's pick) within 10 % of our best in ${wide.autoWithin} of ${wide.autoCells}`), 'README: spmm-wide geomean and auto');
  // the H200's spmm-wide, a baseline of its own
  const h200 = await readResultFile(root('reports/baselines/h200/spmm-wide.json'));
  const w2 = oursVsPeers(h200.cases);
  assert.ok(w2);
  const c2 = h200.spbench.commit?.slice(0, 7) ?? '?';
  assert.ok(readme.includes(`commit ${c2}): ours ahead in ${w2.ahead} of ${w2.cells}, geometric mean ${w2.geomean.toFixed(2)}×, \`auto\` within 10 % in ${w2.autoWithin} of ${w2.autoCells}`), `README: H200 spmm-wide of ${c2}, ${w2.ahead} of ${w2.cells}, ${w2.geomean.toFixed(2)}, ${w2.autoWithin} of ${w2.autoCells}`);
  const paper = (await readResultFile(root('reports/baselines/h100/paper-spmm.json'))).cases.filter((c) => c.params.mode === 'graph');
  const p = oursVsPeers(paper);
  assert.ok(p);
  const all = p.ahead === p.cells ? `all ${p.cells} graph-mode cells` : `${p.ahead} of ${p.cells} graph-mode cells`;
  assert.ok(readme.includes(`ours ahead in ${all}, geometric mean ${p.geomean.toFixed(2)}×`), `README: paper grid, ${all}, ${p.geomean.toFixed(2)}`);
});
