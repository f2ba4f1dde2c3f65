// Timing checks: `auto` and the method it chose time one kernel and plan twice; far apart, the report says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CaseResult, MethodResult } from '../src/results/schema.js';
import { SAME_KERNEL_GAP, sameKernelNotes } from '../src/report/present.js';
import { renderCasePlain } from '../src/report/plain.js';
import { renderCaseTable } from '../src/report/table.js';
import { renderReport } from '../src/report/index.js';
import { method, resultFile } from './report-fixtures.js';

const plan = { path: 'ell, uniform (no matrix lookup)', cols_per_thread: 2, grid_y: 8 };
const samples = (us: number) => Array.from({ length: 20 }, (_, i) => (us + (i % 3) * 0.01) / 1000);
const chosen = (us: number, info: Record<string, string | number> = plan) => method('batched-col', 'ours', samples(us), { info: { reps_per_sample: 12, calls_per_graph: 12, ...info } });
const auto = (us: number, info: Record<string, string | number> = plan) =>
  method('auto', 'ours', samples(us), { info: { reps_per_sample: 13, calls_per_graph: 13, choice: 'batched-col', rule: 'column-major, sparse rows', ...info } });
const peer = method('cublas-strided', 'peer', samples(4.3));
const oneCase = (results: MethodResult[]): CaseResult => ({
  id: 'col-wide/spmm/batch=1000/dim=16/nnz=1/nb=16/f32/graph/col', op: 'spmm', label: 'batch 1000, dim 16, nnz/row 1, n_B 16',
  params: { batch: 1000, dim: 16, nnzRow: 1, nb: 16, precision: 'f32', mode: 'graph', layout: 'col' }, input: { source: 'generated', seed: 1 }, results,
});

test('sameKernelNotes: auto 1.54x away from the same kernel and plan is named, with both figures', () => {
  const notes = sameKernelNotes([chosen(2.01), auto(3.1), peer]);
  assert.equal(notes.length, 1);
  assert.match(notes[0], /auto ran batched-col's kernel and plan in 3\.1\d? µs, batched-col in 2\.0\d µs \(1\.5\d× apart\)/);
  assert.match(notes[0], /disturbed; rerun the case/);
  // either side slower counts
  assert.equal(sameKernelNotes([chosen(3.1), auto(2.01)]).length, 1);
});

test('sameKernelNotes: no note within the gap, for another plan, or without the chosen method\'s figure', () => {
  assert.deepEqual(sameKernelNotes([chosen(2.01), auto(2.01 * (SAME_KERNEL_GAP - 0.05)), peer]), []);
  // a different plan (columns a thread) is not the same kernel run twice
  assert.deepEqual(sameKernelNotes([chosen(2.01), auto(3.1, { ...plan, cols_per_thread: 4 }), peer]), []);
  assert.deepEqual(sameKernelNotes([method('batched-col', 'ours', [], { status: 'failed' }), auto(3.1)]), []);
  assert.deepEqual(sameKernelNotes([auto(3.1), peer]), []);
});

test('the plain lines, the terminal table and the Markdown / HTML reports carry the note; none where the timings agree', () => {
  const bad = oneCase([chosen(2.01), auto(3.1), peer]);
  const good = oneCase([chosen(2.01), auto(2.02), peer]);
  const meta = resultFile([]);
  assert.match(renderCasePlain(bad, meta), /\n  note: auto ran batched-col's kernel/);
  assert.doesNotMatch(renderCasePlain(good, meta), /note:/);
  assert.match(renderCaseTable(bad, meta), /\nnote: auto ran batched-col's kernel/);
  assert.doesNotMatch(renderCaseTable(good, meta), /note:/);
  const md = renderReport(resultFile([bad]), 'md');
  assert.match(md, /Timing checks:\n\n\* batch 1000, dim 16, nnz\/row 1, n_B 16: auto ran batched-col's kernel/);
  assert.doesNotMatch(renderReport(resultFile([good]), 'md'), /Timing checks/);
  assert.match(renderReport(resultFile([bad]), 'html'), /<li>batch 1000, dim 16, nnz\/row 1, n_B 16: auto ran batched-col&#39;s kernel|<li>batch 1000, dim 16, nnz\/row 1, n_B 16: auto ran batched-col's kernel/);
});
