// Our column-major kernel (batched-col): B_i (k_i x nb) and C_i (m_i x nb) stored column by column,
// C_i[j*m_i + r]. Lanes map to consecutive rows of the batch (its block-diagonal rows), so a warp's
// store of column j of C_i is 32 consecutive values and its loads of B_i[j*k_i + c] fall in the one
// k_i-value column j of B_i (a few sectors, L1-resident across the row's nonzeros). blockIdx.y walks
// the columns of C in chunks of JC, so one thread keeps its row of A in registers (K ELL slots) or
// re-reads it from L1 (K = 0: CSR, any row length) for every chunk it owns.
#pragma once
#include "common.cuh"

namespace spb {

// Where row `row` of the block-diagonal batch lives: x = row_off of its matrix, y = m, z = col_off, w = k.
// One int4 per matrix, found through the per-row matrix index (both built on the host in setup), or
// computed from the row when every matrix has the same m and k (um > 0).
template <typename T, int K, int JC>
__global__ void __launch_bounds__(256) col_kernel(const int* __restrict__ rmat, const int4* __restrict__ desc, const int* __restrict__ rp,
                                                  const int* __restrict__ cols, const T* __restrict__ vals, const T* __restrict__ B, T* __restrict__ C,
                                                  int nb, int total_rows, int um, int uk) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= total_rows) return;
  // Uniform batch (um = m, uk = k of every matrix): the matrix follows from the row, no lookups.
  const int4 d = um > 0 ? make_int4(row / um * um, um, row / um * uk, uk) : __ldg(desc + __ldg(rmat + row));
  const T* Bi = B + int64_t(d.z) * nb;
  T* Ci = C + int64_t(d.x) * nb + (row - d.x);
  using A = acc_t<T>;
  constexpr int KS = K > 0 ? K : 1;
  int c[KS];
  A a[KS];
  int p0 = 0, p1 = 0;
  if (K > 0) {
#pragma unroll
    for (int s = 0; s < KS; ++s) { c[s] = __ldg(cols + int64_t(row) * K + s); a[s] = widen(__ldg(vals + int64_t(row) * K + s)); }
  } else {
    p0 = __ldg(rp + row);
    p1 = __ldg(rp + row + 1);
  }
  for (int j0 = blockIdx.y * JC; j0 < nb; j0 += gridDim.y * JC) {
    A acc[JC];
#pragma unroll
    for (int h = 0; h < JC; ++h) acc[h] = A(0);
    if (K > 0) {
#pragma unroll
      for (int s = 0; s < KS; ++s) {
        if (c[s] < 0) continue;
#pragma unroll
        for (int h = 0; h < JC; ++h)
          if (JC == 1 || j0 + h < nb) acc[h] += a[s] * widen(__ldg(Bi + int64_t(j0 + h) * d.w + c[s]));
      }
    } else {
      for (int q = p0; q < p1; ++q) {
        const int cq = __ldg(cols + q);
        const A aq = widen(__ldg(vals + q));
#pragma unroll
        for (int h = 0; h < JC; ++h)
          if (JC == 1 || j0 + h < nb) acc[h] += aq * widen(__ldg(Bi + int64_t(j0 + h) * d.w + cq));
      }
    }
#pragma unroll
    for (int h = 0; h < JC; ++h)
      if (JC == 1 || j0 + h < nb) Ci[int64_t(j0 + h) * d.y] = narrow<T>(acc[h]);
  }
}

}  // namespace spb
