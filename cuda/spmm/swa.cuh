// The paper's kernels (seeds 001/003): Sub-Warp-Assigned SpMM for COO (SparseTensor) and CSR, with
// and without shared-memory output and column cache blocking. One kernel template serves both the
// non-batched launch (one matrix per launch: mat_base = i, count = 1) and the Batched SpMM launch
// (the whole batch: mat_base = 0, count = batch), so the batched variants are not copies.
#pragma once
#include "common.cuh"

namespace spb {

// SWA COO with global atomics: a sub-warp (2^lg threads) per nonzero of matrix `mat`; C must be zero.
// Every atomic rounds C to T, so with 16-bit T there is no f32 accumulation: not applicable there (methods.cuh).
template <typename T, Layout L>
__global__ void swa_coo_global_kernel(BatchView<T> v, int mat, int lg) {
  const int sw = 1 << lg;
  const int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const int nz0 = v.nnz_off[mat], nnz = v.nnz_off[mat + 1] - nz0;
  const int64_t nz = i >> lg;
  if (nz >= nnz) return;
  const int lane = int(i & (sw - 1));
  const int m = v.row_off[mat + 1] - v.row_off[mat], k = v.col_off[mat + 1] - v.col_off[mat];
  const T* B = v.B + int64_t(v.col_off[mat]) * v.nb;
  T* C = v.C + int64_t(v.row_off[mat]) * v.nb;
  const int r = v.coo_r[nz0 + nz], c = v.coo_c[nz0 + nz];
  const acc_t<T> a = widen(v.coo_v[nz0 + nz]);
  for (int j = lane; j < v.nb; j += sw) atomicAdd(&C[didx<L>(r, j, m, v.nb)], narrow<T>(a * widen(B[didx<L>(c, j, k, v.nb)])));
}

// SWA CSR: a sub-warp per (matrix, column block, row). Threads are laid out as the paper's Batched
// CSR: count * max_m * p sub-warps; rows past a smaller matrix's end exit at once.
// Shared = false: each lane accumulates its columns in registers (no atomics, no memset).
// Shared = true: each sub-warp keeps its row segment (cb_w values) in shared memory (paper Fig. 5c/d).
// Sums are in acc_t<T> (float for f16/bf16), in registers or shared memory alike.
template <typename T, Layout L, bool Shared>
__global__ void swa_csr_kernel(BatchView<T> v, int mat_base, int count, int max_m, int p, int cb_w, int lg) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  using A = acc_t<T>;
  const int sw = 1 << lg;
  const int lane = threadIdx.x & (sw - 1);
  const int64_t t = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) >> lg;
  const int64_t per_mat = int64_t(max_m) * p;
  if (t >= per_mat * count) return;
  const int mat = mat_base + int(t / per_mat);
  const int rem = int(t % per_mat), cb = rem / max_m, row = rem % max_m;
  const int r0 = v.row_off[mat], m = v.row_off[mat + 1] - r0;
  if (row >= m) return;
  const int k = v.col_off[mat + 1] - v.col_off[mat];
  const int nb = v.nb, j0 = cb * cb_w, jw = min(cb_w, nb - j0);
  const T* B = v.B + int64_t(v.col_off[mat]) * nb;
  T* C = v.C + int64_t(r0) * nb;
  const int p0 = v.rp[r0 + row], p1 = v.rp[r0 + row + 1];
  if (Shared) {
    A* srow = reinterpret_cast<A*>(smem_raw) + (threadIdx.x >> lg) * cb_w;
    // Each lane touches only its own columns (j = lane mod sw): no barrier is needed.
    for (int j = lane; j < jw; j += sw) srow[j] = A(0);
    for (int q = p0; q < p1; ++q) {
      const int c = v.ci[q];
      const A a = widen(v.val[q]);
      for (int j = lane; j < jw; j += sw) srow[j] += a * widen(B[didx<L>(c, j0 + j, k, nb)]);
    }
    for (int j = lane; j < jw; j += sw) C[didx<L>(row, j0 + j, m, nb)] = narrow<T>(srow[j]);
  } else {
    for (int j = lane; j < jw; j += sw) {
      A acc = A(0);
      for (int q = p0; q < p1; ++q) acc += widen(v.val[q]) * widen(B[didx<L>(v.ci[q], j0 + j, k, nb)]);
      C[didx<L>(row, j0 + j, m, nb)] = narrow<T>(acc);
    }
  }
}

// SWA COO with the output (or a column block of it) in shared memory: a thread block per
// (matrix, column block); no zeroing kernel, atomics hit shared memory (paper Fig. 5a/b).
// Dynamic shared memory: max_m * cb_w values of acc_t<T> (f16/bf16: float atomics in shared memory,
// so the sums are f32 and C is rounded once).
template <typename T, Layout L>
__global__ void swa_coo_shared_kernel(BatchView<T> v, int mat_base, int p, int cb_w, int lg) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  using A = acc_t<T>;
  A* s = reinterpret_cast<A*>(smem_raw);
  const int mat = mat_base + blockIdx.x / p, cb = blockIdx.x % p;
  const int nb = v.nb, j0 = cb * cb_w, jw = min(cb_w, nb - j0);
  const int r0 = v.row_off[mat], m = v.row_off[mat + 1] - r0;
  if (jw <= 0 || m == 0) return;  // uniform over the block: before any barrier
  const int k = v.col_off[mat + 1] - v.col_off[mat];
  const int nz0 = v.nnz_off[mat], nnz = v.nnz_off[mat + 1] - nz0;
  const T* B = v.B + int64_t(v.col_off[mat]) * nb;
  T* C = v.C + int64_t(r0) * nb;
  const int tot = m * jw;
  for (int i = threadIdx.x; i < tot; i += blockDim.x) s[i] = A(0);
  __syncthreads();
  const int sw = 1 << lg, lane = threadIdx.x & (sw - 1);
  for (int nz = threadIdx.x >> lg; nz < nnz; nz += blockDim.x >> lg) {
    const int r = v.coo_r[nz0 + nz], c = v.coo_c[nz0 + nz];
    const A a = widen(v.coo_v[nz0 + nz]);
    for (int j = lane; j < jw; j += sw) atomicAdd(&s[r * jw + j], a * widen(B[didx<L>(c, j0 + j, k, nb)]));
  }
  __syncthreads();
  for (int i = threadIdx.x; i < tot; i += blockDim.x) {
    const int r = L == Layout::Row ? i / jw : i % m;
    const int j = L == Layout::Row ? i % jw : i / m;
    C[didx<L>(r, j0 + j, m, nb)] = narrow<T>(s[r * jw + j]);
  }
}

// Column cache blocking of the paper: split nb into p blocks of cb_w columns so that `per_col`
// bytes per column fit `budget`. p = 0 means even one column does not fit (paper's case 3).
struct ColBlocking {
  int p = 1, cb_w = 1;
  size_t smem = 0;
};
inline ColBlocking col_blocking(int nb, size_t per_col, size_t budget) {
  ColBlocking b;
  if (per_col == 0) { b.cb_w = std::max(nb, 1); return b; }
  if (per_col > budget) { b.p = 0; return b; }
  int fit = int(std::min<size_t>(budget / per_col, size_t(std::max(nb, 1))));
  b.p = ceil_div(std::max(nb, 1), fit);
  b.cb_w = ceil_div(std::max(nb, 1), b.p);  // even blocks
  b.smem = per_col * b.cb_w;
  return b;
}

// Opt a kernel into more than the default 48 KB of dynamic shared memory when it needs it.
template <typename K>
inline void allow_smem(K kernel, size_t bytes) {
  if (bytes > 48 * 1024) CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
}

}  // namespace spb
