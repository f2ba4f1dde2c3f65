// A tiny suite for the shard, merge and --devices tests: four suite cases of both ops, fast on the CPU backend.
export const TINY_SUITE = {
  name: 'tiny',
  defaults: { samples: 2, warmup: 1 },
  cases: [
    { op: 'spmm', name: 'a', batch: 4, dim: 16, nb: [8, 16] },
    { op: 'spmm', name: 'b', batch: 8, dim: 32, nb: 8 },
    { op: 'spgemm', name: 'c', gen: ['uniform:rows=50,nnz_row=3'] },
    { op: 'spgemm', name: 'd', gen: ['banded:n=40,bw=2'], precision: ['f32', 'f64'] },
  ],
};
