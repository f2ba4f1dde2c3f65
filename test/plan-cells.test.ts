// scripts/plan-cells.mjs: the baselines' uniform SpMM cases as plan-check lines, with the listed planner moves applied
// (a move whose line the files no longer print fails, so the list empties when the baselines are rerun).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../scripts/plan-cells.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'spbench-plan-cells-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const spmmCase = (precision: string, layout: string, nnzRow: number, nb: number, choice: string) => ({
  op: 'spmm',
  params: { precision, layout, batch: 1000, dim: 64, nnz_row: nnzRow, nb },
  results: [
    { method: 'auto', status: 'ok', info: { choice } },
    { method: 'batched-slab', status: 'ok', info: { strips_a_warp: 1 } },
  ],
});
const baseline = join(dir, 'wide.json');
writeFileSync(baseline, JSON.stringify({ cases: [spmmCase('f16', 'col', 3, 16, 'batched-tile'), spmmCase('f32', 'row', 8, 64, 'batched-csr-flat')] }));
const run = (moves?: string) => {
  const args = [SCRIPT];
  if (moves !== undefined) {
    const file = join(dir, 'moves.txt');
    writeFileSync(file, moves);
    args.push('--moves', file);
  }
  return spawnSync(process.execPath, [...args, baseline], { encoding: 'utf8' });
};

test('plan-cells: one line a uniform case, with the pick auto recorded and batched-slab strips', () => {
  const r = run();
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.stdout.trim().split('\n'), ['f16 col 1000 64 3 16 batched-tile 1', 'f32 row 1000 64 8 64 batched-csr-flat 1']);
});

test('plan-cells: a listed move prints the case with its new choice, the rest as recorded', () => {
  const r = run('# comment\nf16 col 1000 64 3 16 batched-tile 1 -> batched-col  measured on the H200\n');
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.stdout.trim().split('\n'), ['f16 col 1000 64 3 16 batched-col 1', 'f32 row 1000 64 8 64 batched-csr-flat 1']);
});

test('plan-cells: a move that no case prints (the baseline rerun) fails, naming its line', () => {
  const r = run('\nf16 col 1000 64 3 16 batched-slab 1 -> batched-col  stale\n');
  assert.equal(r.status, 1);
  assert.match(r.stderr, /moves\.txt:2: no case of the baselines prints "f16 col 1000 64 3 16 batched-slab 1"/);
});

test('plan-cells: a malformed move is refused with its file and line', () => {
  const r = run('f16 col 1000 64 3 16 -> batched-col\n');
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /moves\.txt:1: not "precision layout batch dim nnz_row nb choice strips -> choice/);
});
