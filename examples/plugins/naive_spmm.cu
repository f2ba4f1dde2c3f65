#include <spbench_plugin.h>

// One thread per (row, column of B): the simplest correct batched CSR SpMM.
template <typename T>
__global__ void naive(spbench::SpmmProblem p) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t >= p.total_rows * p.nb) return;
  const int row = int(t / p.nb), j = int(t % p.nb);
  // which matrix owns this stacked row
  int i = 0;
  while (p.d_row_offset[i + 1] <= row) ++i;
  const T* B = p.b_as<T>() + size_t(p.d_col_offset[i]) * p.nb;
  T* C = p.c_as<T>() + size_t(p.d_row_offset[i]) * p.nb;
  T acc = 0;
  for (int q = p.row_ptr[row]; q < p.row_ptr[row + 1]; ++q) acc += p.values_as<T>()[q] * B[p.col_idx[q] * p.nb + j];
  C[(row - p.d_row_offset[i]) * p.nb + j] = acc;
}

static spbench::Result run(const spbench::SpmmProblem& p, void*) {
  const long long n = p.total_rows * p.nb;
  if (n == 0) return spbench::ok();
  if (p.value_type == spbench::ValueType::F32) naive<float><<<unsigned((n + 255) / 256), 256, 0, p.stream>>>(p);
  else naive<double><<<unsigned((n + 255) / 256), 256, 0, p.stream>>>(p);
  SPBENCH_TRY_CUDA(cudaGetLastError());
  return spbench::ok();
}

SPBENCH_SPMM_PLUGIN(R"spbench({
  "name": "naive",
  "op": "spmm",
  "formats": ["csr"],
  "layouts": ["row"],
  "precisions": ["f32", "f64"],
  "mixed": true,
  "graph": true
})spbench", nullptr, run, nullptr)
