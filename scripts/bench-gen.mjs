#!/usr/bin/env node
// Times the generators on the sizes the benchmarks use (run `npm run build` first):
//   node scripts/bench-gen.mjs [repeats]
// Prints the median wall and CPU time of each case (CPU time is the steadier figure on a busy
// machine); large cases stay out of the unit tests.
import { generateBatch, generateMatrix } from '../dist/src/matrix/generate/index.js';

const repeats = Number(process.argv[2] ?? 3);
const cases = [
  ['batch 10000 x dim 64, nnz/row 3', () => generateBatch({ batch: 10000, dim: { min: 64, max: 64 }, nnzRow: { min: 3, max: 3 }, seed: 1 })],
  ['batch 10000 x dim 32:256, nnz/row 1:5', () => generateBatch({ batch: 10000, dim: { min: 32, max: 256 }, nnzRow: { min: 1, max: 5 }, seed: 1 })],
  ...['rmat:scale=18,ef=4', 'rmat:scale=16,ef=8', 'stencil:dims=3,n=40,points=27', 'stencil:dims=2,n=1000,points=5', 'uniform:rows=200000,nnz_row=8', 'banded:n=1000000,bw=4'].map(
    (spec) => [spec, () => [generateMatrix(spec, 1)]],
  ),
];
for (const [name, run] of cases) {
  const wall = [];
  const cpu = [];
  let nnz = 0;
  for (let r = 0; r < repeats; r++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const mats = run();
    const c = process.cpuUsage(c0);
    wall.push(performance.now() - t0);
    cpu.push((c.user + c.system) / 1000);
    nnz = mats.reduce((s, m) => s + m.rowPtr[m.rows], 0);
  }
  const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1].toFixed(0).padStart(6);
  console.log(`${name.padEnd(40)} wall ${median(wall)} ms  cpu ${median(cpu)} ms  (nnz ${nnz}, median of ${repeats})`);
}
