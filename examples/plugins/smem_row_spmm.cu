// Example SpMM plugin: row-major only, one thread block per matrix with that matrix's B_i staged in
// shared memory (the CSR variant of the paper's shared-memory idea, turned around: B_i is small for the
// batched case, 32-256 rows). Each warp then takes rows of A_i and reads B_i from shared memory.
// Where B_i does not fit in the block's shared memory (opt-in limit of the device) the plugin answers
// "not applicable" with the reason, which spbench reports as such.
#include <spbench_plugin.h>

namespace {

template <typename T>
__global__ void smem_row(int nb, const int* __restrict__ row_off, const int* __restrict__ col_off, const int* __restrict__ row_ptr,
                         const int* __restrict__ col_idx, const T* __restrict__ val, const T* __restrict__ B, T* __restrict__ C) {
  extern __shared__ unsigned char smem_raw[];
  T* sB = reinterpret_cast<T*>(smem_raw);
  const int i = blockIdx.x;
  const int r0 = row_off[i], m = row_off[i + 1] - r0, k = col_off[i + 1] - col_off[i];
  const T* Bi = B + size_t(col_off[i]) * nb;
  for (int e = threadIdx.x; e < k * nb; e += blockDim.x) sB[e] = Bi[e];  // row-major: contiguous
  __syncthreads();
  T* Ci = C + size_t(r0) * nb;
  const int warps = blockDim.x / 32, w = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int r = w; r < m; r += warps) {
    const int s = row_ptr[r0 + r], e = row_ptr[r0 + r + 1];
    for (int j = lane; j < nb; j += 32) {
      T acc = 0;
      for (int q = s; q < e; ++q) acc += val[q] * sB[col_idx[q] * nb + j];
      Ci[size_t(r) * nb + j] = acc;
    }
  }
}

template <typename T> size_t smem_bytes(const spbench::SpmmProblem& p) { return size_t(p.max_cols) * p.nb * sizeof(T); }

// Not timed, not captured: checks the shared-memory need and raises the kernel's limit once.
template <typename T>
spbench::Result prepare(const spbench::SpmmProblem& p) {
  const size_t smem = smem_bytes<T>(p), limit = p.device->sharedMemPerBlockOptin;
  if (smem > limit)
    return spbench::not_applicable("B_i needs %zu bytes of shared memory (%d rows x n_B %d), more than the %zu a block may use on %s", smem, p.max_cols, p.nb,
                                   limit, p.device->name);
  SPBENCH_TRY_CUDA(cudaFuncSetAttribute(smem_row<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  return spbench::ok();
}

spbench::Result setup(const spbench::SpmmProblem& p, void**) {
  return p.value_type == spbench::ValueType::F32 ? prepare<float>(p) : prepare<double>(p);
}

template <typename T>
spbench::Result launch(const spbench::SpmmProblem& p) {
  if (p.count == 0) return spbench::ok();
  const size_t smem = smem_bytes<T>(p);
  smem_row<T><<<p.count, 256, smem, p.stream>>>(p.nb, p.d_row_offset, p.d_col_offset, p.row_ptr, p.col_idx, p.values_as<T>(), p.b_as<T>(), p.c_as<T>());
  SPBENCH_TRY_CUDA(cudaGetLastError());
  return spbench::ok();
}

spbench::Result run(const spbench::SpmmProblem& p, void*) {
  return p.value_type == spbench::ValueType::F32 ? launch<float>(p) : launch<double>(p);
}

}  // namespace

SPBENCH_SPMM_PLUGIN(R"spbench({
  "name": "smem-row",
  "op": "spmm",
  "description": "a block per matrix, B_i staged in shared memory, a warp per row (row-major only)",
  "formats": ["csr"],
  "layouts": ["row"],
  "precisions": ["f32", "f64"],
  "mixed": true,
  "graph": true
})spbench", setup, run, nullptr)
