#!/usr/bin/env node
// The uniform SpMM cases of result files as lines for cuda/check/plan_check.cu: "precision layout batch dim
// nnz_row nb choice strips" (auto's info.choice; batched-slab's info.strips_a_warp, "-" where it did not run or
// did not record it), each shape once.
//   node scripts/plan-cells.mjs [--moves cuda/check/plan_moves.txt] reports/baselines/h100/spmm-wide.json ... | plan_check
// --moves: planner moves made on purpose since those files ("LINE -> choice", LINE as printed here): the line is printed
// with the new choice; a move whose line the files no longer print (the baseline rerun) fails, so the list empties.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

const args = process.argv.slice(2);
const moves = new Map();
const mi = args.indexOf('--moves');
if (mi >= 0) {
  const file = args[mi + 1];
  args.splice(mi, 2);
  readFileSync(file, 'utf8').split('\n').forEach((text, i) => {
    if (!text.trim() || text.startsWith('#')) return;
    const m = /^(\S+(?: \S+){7}) -> (\S+)(?:\s|$)/.exec(text);
    if (!m) throw new Error(`${file}:${i + 1}: not "precision layout batch dim nnz_row nb choice strips -> choice ...": ${text}`);
    moves.set(m[1], { to: m[2], where: `${file}:${i + 1}` });
  });
}
const seen = new Set();
const out = (line) => {
  const mv = moves.get(line);
  if (mv) mv.used = true;
  const f = line.split(' ');
  if (mv) f[6] = mv.to;
  console.log(f.join(' '));
};
for (const path of args) {
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
    if (!seen.has(line)) seen.add(line), out(line);
  }
}
const stale = [...moves].filter(([, mv]) => !mv.used);
for (const [line, mv] of stale) console.error(`${mv.where}: no case of the baselines prints "${line}" (rerun since?): drop the move`);
if (stale.length) process.exit(1);
