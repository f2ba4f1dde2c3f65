// Example SpMM plugin: one warp per row of the stacked CSR batch (docs/plugins.md walks through it).
// Lane j of the warp computes columns j, j + 32, ... of the row's output: C[r][j] = sum_k A[r][k] * B_i[k][j].
// No atomics, no shared memory; any layout, f32 and f64, mixed batches, graph capture.
#include <spbench_plugin.h>

namespace {

template <typename T>
__global__ void warp_row(int total_rows, int count, int nb, spbench::Layout layout, const int* __restrict__ row_off,
                         const int* __restrict__ col_off, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                         const T* __restrict__ val, const T* __restrict__ B, T* __restrict__ C) {
  const int warp = int((blockIdx.x * size_t(blockDim.x) + threadIdx.x) / 32);
  const int lane = threadIdx.x % 32;
  if (warp >= total_rows) return;
  // which matrix owns stacked row `warp`: binary search over the row offsets
  int lo = 0, hi = count;
  while (hi - lo > 1) { const int mid = (lo + hi) / 2; if (row_off[mid] <= warp) lo = mid; else hi = mid; }
  const int i = lo, r = warp - row_off[i];
  const int m = row_off[i + 1] - row_off[i], k = col_off[i + 1] - col_off[i];
  const T* Bi = B + size_t(col_off[i]) * nb;
  T* Ci = C + size_t(row_off[i]) * nb;
  const int ldb = layout == spbench::Layout::RowMajor ? nb : k, ldc = layout == spbench::Layout::RowMajor ? nb : m;
  for (int j = lane; j < nb; j += 32) {
    T acc = 0;
    for (int q = row_ptr[warp]; q < row_ptr[warp + 1]; ++q) acc += val[q] * Bi[spbench::dense_index(layout, col_idx[q], j, ldb)];
    Ci[spbench::dense_index(layout, r, j, ldc)] = acc;
  }
}

template <typename T>
spbench::Result launch(const spbench::SpmmProblem& p) {
  if (p.total_rows == 0) return spbench::ok();
  const int threads = 256, warps_per_block = threads / 32;
  const long long blocks = (p.total_rows + warps_per_block - 1) / warps_per_block;
  warp_row<T><<<unsigned(blocks), threads, 0, p.stream>>>(int(p.total_rows), p.count, p.nb, p.layout, p.d_row_offset, p.d_col_offset, p.row_ptr,
                                                          p.col_idx, p.values_as<T>(), p.b_as<T>(), p.c_as<T>());
  SPBENCH_TRY_CUDA(cudaGetLastError());
  return spbench::ok();
}

spbench::Result run(const spbench::SpmmProblem& p, void*) {
  return p.value_type == spbench::ValueType::F32 ? launch<float>(p) : launch<double>(p);
}

}  // namespace

SPBENCH_SPMM_PLUGIN(R"spbench({
  "name": "warp-row",
  "op": "spmm",
  "description": "one warp per CSR row, lanes over the columns of B",
  "formats": ["csr"],
  "layouts": ["row", "col"],
  "precisions": ["f32", "f64"],
  "mixed": true,
  "graph": true
})spbench", nullptr, run, nullptr)
