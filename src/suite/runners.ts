// The spmm / spgemm cores that `spbench run` drives (owned by the cli module).
import type { Runners } from './run.js';

export async function loadRunners(): Promise<Runners> {
  // Computed specifiers until the cli branch (src/bench/spmm-run.ts, spgemm-run.ts) is merged.
  const spmmPath = '../bench/spmm-run.js';
  const spgemmPath = '../bench/spgemm-run.js';
  const [spmm, spgemm] = (await Promise.all([import(spmmPath), import(spgemmPath)])) as [{ runSpmm: Runners['spmm'] }, { runSpgemm: Runners['spgemm'] }];
  return { spmm: spmm.runSpmm, spgemm: spgemm.runSpgemm };
}
