// scripts/gpu-test.mjs dry-run on the CPU backend: summary line, log file, exit code on a failure.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../scripts/gpu-test.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'spbench-gpu-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function gpuTest(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [SCRIPT, '--backend', 'cpu', ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 300_000 });
}

test('gpu-test: the spgemm odd cases pass on the CPU backend, summary last, log written', () => {
  const log = join(dir, 'gpu.log');
  const r = gpuTest(['--only', 'spgemm', '--log', log]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.match(lines.at(-1)!, /^\d+ passed, 0 failed$/);
  assert.equal(lines.filter((l) => l.startsWith('PASS spgemm')).length, 7);
  assert.match(r.stdout, /PASS spgemm: checked on 300 rows of C gathered on the device/);
  assert.match(r.stdout, /PASS spgemm: FEM blocks \(the merged puts\)/);
  assert.match(r.stdout, /a row whose products overflow every shared table/);
  // the case run with the SpGEMM estimates divided (a native switch that the CPU backend ignores) passes too
  assert.match(r.stdout, /PASS spgemm: symbolic estimates too small/);
  assert.equal(readFileSync(log, 'utf8'), r.stdout);
});

test('gpu-test: the f16/bf16 spmm cases pass on the CPU backend (odd sizes, both layouts, 16-bit tolerances)', () => {
  const r = gpuTest(['--only', 'spmm', '--match', 'f16/bf16']);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const pass = r.stdout.split('\n').filter((l) => l.startsWith('PASS spmm: f16/bf16'));
  assert.equal(pass.length, 75, r.stdout);
  // batched-tile's two strips a warp: multi-panel and one-panel row-major and multi-panel column-major in 64-row chunks,
  // one-panel column-major in 32-row ones (4), and the three rule 2t cases below
  assert.equal(pass.filter((l) => /two strips a warp/.test(l)).length, 7, r.stdout);
  // and `auto`'s rule 2t from k 200 (above tile's grid bound; from k 176 at density >= 1/4) and past k 256 below it, and rule
  // 2's 16-bit clause from density 1/12
  assert.equal(pass.filter((l) => /auto takes batched-tile with two strips a warp .*rule 2t/.test(l)).length, 3, r.stdout);
  assert.ok(pass.some((l) => /density 0\.104\), row-major, nB 64\/136: auto takes batched-slab/.test(l)), r.stdout);
  // and batched-slab's nb 5-8 clause, ahead of batched-split's rule
  assert.ok(pass.some((l) => /nB 6\/8: auto takes batched-slab \(its nb 5-8 clause/.test(l)), r.stdout);
  assert.ok(pass.some((l) => /nB 7, batch 75: auto takes batched-slab \(its nb 5-8 clause: split's threads past 3\/4/.test(l)), r.stdout);
  assert.ok(pass.some((l) => /nB 8, batch 140: auto keeps batched-split/.test(l)), r.stdout);
  // and batched-col's two rows a lane (16-bit, m_i even): files and a uniform batch
  assert.equal(pass.filter((l) => /batched-col with two rows a lane/.test(l)).length, 2, r.stdout);
  // and batched-tile's A_i held whole (k 129-192), both layouts
  assert.equal(pass.filter((l) => /batched-tile holds A_i whole \(k 129-192\)/.test(l)).length, 2, r.stdout);
  assert.equal(pass.filter((l) => /two strips a warp in 64-row chunks/.test(l)).length, 3, r.stdout);
  assert.ok(pass.some((l) => /column-major files/.test(l)) && pass.some((l) => /dim 1, nnz\/row 1/.test(l)));
  // batched-slab's 12-warp cases (planned, and forced onto the odd files) run on the CPU backend too, as plain cases
  assert.ok(pass.some((l) => /12 warps a block/.test(l)) && pass.some((l) => /forced to 12 warps/.test(l)), r.stdout);
  // and its 16-bit places at their edge (64-row slices of 1000 columns; 48-row slices of 1040), both layouts
  assert.equal(pass.filter((l) => /apos's 16 bits/.test(l)).length, 4, r.stdout);
  // and the cases for B / C off 16-byte alignment (batched-tile's and batched-slab's MIS kernels, both layouts; an aligned control)
  assert.equal(pass.filter((l) => /off 16-byte alignment, batched-(tile|slab)'s MIS kernels, (row|col)-major/.test(l)).length, 4, r.stdout);
  assert.ok(pass.some((l) => /batched-tile's aligned kernels/.test(l)), r.stdout);
  // and batched-slab's two row-major MIS paths by nB (word copies where nB % 4 != 0; their arguments must be ones spbench takes)
  assert.equal(pass.filter((l) => /row-major nB [\d,]+: batched-slab's MIS kernels (with word copies|of 16-byte vectors)/.test(l)).length, 2, r.stdout);
  assert.match(r.stdout.trim().split('\n').at(-1)!, /^\d+ passed, 0 failed$/);
});

test('gpu-test: a failed verification fails the run (exit 1) and is listed', () => {
  const r = gpuTest(['--only', 'spmm', '--match', 'batch 1'], { SPBENCH_NATIVE_ARGS: '--inject-fault' });
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /FAIL spmm: batch 1 /);
  assert.match(r.stdout, /cpu-csr: FAILED/);
  assert.match(r.stdout.trim().split('\n').at(-1)!, /^\d+ passed, [1-9]\d* failed$/);
});

test('gpu-test: bad arguments are usage errors', () => {
  const r = gpuTest(['--only', 'gemm']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--only: 'gemm' is not one of spmm, spgemm/);
  const p = gpuTest(['--part', '3/2']);
  assert.equal(p.status, 2);
  assert.match(p.stderr, /--part: '3\/2' is not K\/N with 1 <= K <= N/);
});
