// The spmm / spgemm cores that `spbench run` drives (src/bench, owned by the cli module); imported
// lazily so that `spbench --help` stays fast.
import type { Runners } from './run.js';

export async function loadRunners(): Promise<Runners> {
  const [spmm, spgemm] = await Promise.all([import('../bench/spmm-run.js'), import('../bench/spgemm-run.js')]);
  return { spmm: (req, sink) => spmm.runSpmm(req, sink), spgemm: (req, sink) => spgemm.runSpgemm(req, sink) };
}
