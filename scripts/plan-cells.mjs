#!/usr/bin/env node
// The uniform SpMM cases of result files as lines for cuda/check/plan_check.cu: "precision layout batch dim
// nnz_row nb choice strips" (auto's info.choice; batched-slab's info.strips_a_warp, "-" where it did not run or
// did not record it), each shape once.
//   node scripts/plan-cells.mjs reports/baselines/h100/spmm-wide.json ... | plan_check
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

const seen = new Set();
for (const path of process.argv.slice(2)) {
  const raw = readFileSync(path);
  const file = JSON.parse((path.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8'));
  for (const c of file.cases) {
    const p = c.params;
    const dim = String(p.dim ?? ''), z = String(p.nnz_row ?? p.nnzRow ?? '');
    if (c.op !== 'spmm' || !/^\d+$/.test(dim) || !/^\d+$/.test(z) || !Number.isInteger(p.batch)) continue;
    const auto = c.results.find((r) => r.method === 'auto' && r.status === 'ok');
    if (!auto?.info?.choice) continue;
    const slab = c.results.find((r) => r.method === 'batched-slab' && r.status === 'ok');
    const strips = slab?.info?.strips_a_warp ?? '-';
    const line = [p.precision, p.layout ?? 'row', p.batch, dim, z, p.nb, auto.info.choice, strips].join(' ');
    if (!seen.has(line)) seen.add(line), console.log(line);
  }
}
