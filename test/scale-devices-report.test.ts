// Cross-device reports: two synthetic result files (H100, and an "H200" whose our method is 1.5×
// faster while the peers are unchanged) side by side in Markdown, HTML (with plots), SVG and CSV.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import type { ResultFile } from '../src/results/schema.js';
import { compareDevices } from '../src/scale/device-report.js';
import { H100, method, resultFile } from './report-fixtures.js';
import { cli, tempDir, writeJson } from './report-cli.js';

const H200 = { ...H100, name: 'NVIDIA H200', global_mem_bytes: 141e9 };

function file(oursMs: number, device: typeof H100, extra = false): ResultFile {
  const cases = [1, 2].map((k) => ({
    id: `set/spgemm/m${k}/f32`, op: 'spgemm' as const, label: `m${k} f32`, params: { suite_case: 'set' }, input: {},
    results: [
      method('hash-opt', 'ours', [oursMs * k, oursMs * k, oursMs * k], { flops: 2e9 }),
      method('cusparse-alg1', 'peer', [4 * k, 4 * k, 4 * k], { flops: 2e9 }),
      method('cusparse-alg3', 'peer', [6 * k, 6 * k, 6 * k], { flops: 2e9 }),
    ],
  }));
  if (extra) cases.push({ ...cases[0], id: 'set/spgemm/only-here/f32', label: 'only here' });
  return resultFile(cases, { device, env: { type: 'env', protocol: 1, backend: 'cuda', executable: 'x', devices: [device], cuda: { runtime: '13.0', driver: '13.0' } } });
}

test('compareDevices: per device the best of ours, its speedup over the fastest peer there, and the ratio to the first device', () => {
  const d = compareDevices([{ path: 'h100.json', file: file(1.5, H100) }, { path: 'h200.json', file: file(1.0, H200, true) }]);
  assert.deepEqual(d.devices, ['NVIDIA H100 80GB HBM3', 'NVIDIA H200']);
  const m1 = d.rows.find((r) => r.id === 'set/spgemm/m1/f32')!;
  assert.equal(m1.cells[0].method, 'hash-opt');
  assert.equal(m1.cells[0].peer, 'cusparse-alg1');
  assert.ok(Math.abs(m1.cells[0].speedup! - 4 / 1.5) < 1e-9);
  assert.ok(Math.abs(m1.cells[1].speedup! - 4) < 1e-9);
  assert.ok(Math.abs(m1.cells[1].ratio! - 1.5) < 1e-9, 'H200 1.5× faster than the H100');
  const only = d.rows.find((r) => r.id === 'set/spgemm/only-here/f32')!;
  assert.equal(only.cells[0].ms, null, 'a case one file lacks is shown as missing there');
  assert.equal(only.cells[1].ratio, null);
});

test('CLI: report h100.json h200.json in md/html/svg/csv; no common case or --baseline exits 2', () => {
  const dir = tempDir();
  const a = writeJson(dir, 'h100.json', file(1.5, H100));
  const b = writeJson(dir, 'h200.json', file(1.0, H200));
  const md = cli(['report', a, b]);
  assert.equal(md.code, 0, md.stderr);
  assert.match(md.stdout, /^# spbench results across devices: NVIDIA H100 80GB HBM3 vs NVIDIA H200/);
  assert.match(md.stdout, /\| set\/spgemm\/m1\/f32 \| hash-opt \| 1\.5 ms \| 1333 \| 2\.67× \(cusparse-alg1\) \| hash-opt \| 1 ms \| 2000 \| 4× \(cusparse-alg1\) \| 1\.5× \|/);
  const html = join(dir, 'devices.html');
  const h = cli(['report', a, b, '--format', 'html', '-o', html]);
  assert.equal(h.code, 0, h.stderr);
  const page = readFileSync(html, 'utf8');
  assert.equal((page.match(/<svg/g) ?? []).length, 2, 'GFLOPS and speedup plots');
  assert.match(page, /Speedup over the fastest peer on the same device/);
  const svg = cli(['report', a, b, '--format', 'svg']);
  assert.equal(svg.code, 0, svg.stderr);
  assert.match(svg.stdout, /NVIDIA H200/);
  const csv = cli(['report', a, b, '--format', 'csv']);
  assert.match(csv.stdout, /^case,device,method,median_ms,gflops,fastest_peer,speedup_over_peer,ratio_vs_first\n/);
  assert.match(csv.stdout, /set\/spgemm\/m1\/f32,NVIDIA H200,hash-opt,1,[\d.]+,cusparse-alg1,4,1\.5\n/);
  const other = writeJson(dir, 'other.json', resultFile([{ ...file(1, H200).cases[0], id: 'unrelated' }], { device: H200 }));
  const none = cli(['report', a, other]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /have no case id in common/);
  const base = cli(['report', a, b, '--baseline', 'cusparse-alg1']);
  assert.equal(base.code, 2);
  assert.match(base.stderr, /--baseline applies to a report of one file/);
});
