// Our batched CSR kernel for the H100 (beyond the paper): a row's output is accumulated in
// registers, each lane owning V consecutive columns loaded/stored as one vector (16 B for float4 /
// double2) when B and C are row-major and nb % V == 0. Threads are laid out as batch x max_m rows x
// tpr lanes, so a block covers several small matrices at once; a grid-stride loop lets the same
// kernel run as a persistent grid (grid capped at what the SMs hold) for huge batches.
#pragma once
#include "common.cuh"

namespace spb {

template <typename T, int V>
struct alignas(sizeof(T) * V) VecT {
  T x[V];
};

template <typename T, Layout L, int V>
__global__ void __launch_bounds__(256) csr_vec_kernel(BatchView<T> v, int lg_tpr, unsigned total) {
  const int tpr = 1 << lg_tpr;
  const int nb = v.nb;
  for (unsigned g = blockIdx.x * blockDim.x + threadIdx.x; g < total; g += gridDim.x * blockDim.x) {
    const int lane = int(g & unsigned(tpr - 1));
    const unsigned t = g >> lg_tpr;
    const int mat = int(t / unsigned(v.max_m));
    const int row = int(t - unsigned(mat) * unsigned(v.max_m));
    const int r0 = v.row_off[mat], m = v.row_off[mat + 1] - r0;
    if (row >= m) continue;
    const int k = v.col_off[mat + 1] - v.col_off[mat];
    const T* B = v.B + int64_t(v.col_off[mat]) * nb;
    T* C = v.C + int64_t(r0) * nb;
    const int p0 = v.rp[r0 + row], p1 = v.rp[r0 + row + 1];
    for (int j = lane * V; j < nb; j += tpr * V) {
      VecT<T, V> acc;
#pragma unroll
      for (int e = 0; e < V; ++e) acc.x[e] = T(0);
      for (int q = p0; q < p1; ++q) {
        const int c = __ldg(v.ci + q);
        const T a = __ldg(v.val + q);
        if (V > 1) {  // only instantiated with V > 1 for row-major and nb % V == 0
          const VecT<T, V> b = *reinterpret_cast<const VecT<T, V>*>(B + int64_t(c) * nb + j);
#pragma unroll
          for (int e = 0; e < V; ++e) acc.x[e] += a * b.x[e];
        } else {
          acc.x[0] += a * B[didx<L>(c, j, k, nb)];
        }
      }
      if (V > 1) *reinterpret_cast<VecT<T, V>*>(C + int64_t(row) * nb + j) = acc;
      else C[didx<L>(row, j, m, nb)] = acc.x[0];
    }
  }
}

// Launch plan for csr_vec_kernel: vector width, lanes per row, threads in all.
struct VecPlan {
  int V = 1, lg_tpr = 0;
  unsigned total = 0;
};
template <typename T>
inline VecPlan vec_plan(int nb, int max_m, int batch, Layout layout) {
  VecPlan p;
  const int vmax = int(16 / sizeof(T));
  p.V = (layout == Layout::Row && nb % vmax == 0) ? vmax : 1;
  const int lanes = std::min(32, next_pow2(std::max(1, ceil_div(nb, p.V))));
  p.lg_tpr = log2i(lanes);
  p.total = unsigned(uint64_t(batch) * max_m * lanes);
  return p;
}

}  // namespace spb
