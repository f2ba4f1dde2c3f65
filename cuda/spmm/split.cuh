// Our split-row kernel (batched-split): a team of S consecutive lanes owns a row of the batch and
// splits its nonzeros (lane s takes the row's nonzeros s, s + S, ...: a team's index and value loads
// are coalesced), each lane summing NV columns of C in registers; the team then adds its S partial
// rows with shuffles. Where rows are long and nb small, the other kernels walk a row serially on
// one lane (or a few): few threads, long dependent chains, and small batches leave SMs idle. Both
// layouts: row-major B through the block-diagonal columns (rows of B stacked, 16-byte vectors where
// nb allows), column-major B_i[j * k_i + c] and C_i[j * m_i + r] through the row's matrix.
#pragma once
#include "common.cuh"
#include "vec.cuh"

namespace spb {

// Adds v[0..NV) over the S lanes of a team (xor partners below O*2 stay inside an aligned team). While
// more than one value is left a lane keeps half of them and adds its partner's copy of that half, so
// a step moves half as many values as the last (NV/2 + NV/4 + ... shuffles, not NV log2 S); once one is
// left the remaining steps add it whole. base: the first of the lane's columns (of the NV).
template <int O, int CNT, typename A, int NV>
__device__ __forceinline__ void team_sum(A (&v)[NV], int s, int& base) {
  if constexpr (O >= 1) {
    if constexpr (CNT > 1) {
      constexpr int H = CNT / 2;
      const bool hi = (s & O) != 0;
#pragma unroll
      for (int i = 0; i < H; ++i) {
        const A send = hi ? v[i] : v[i + H];
        const A keep = hi ? v[i + H] : v[i];
        v[i] = keep + __shfl_xor_sync(0xffffffffu, send, O);
      }
      if (hi) base += H;
      team_sum<O / 2, H>(v, s, base);
    } else {
      v[0] += __shfl_xor_sync(0xffffffffu, v[0], O);
      team_sum<O / 2, 1>(v, s, base);
    }
  }
}

// d[0..W) += a x the W values of B at p (one aligned vector load).
template <typename T, int W, typename A>
__device__ __forceinline__ void split_axpy(A* d, A a, const T* p) {
  const VecT<T, W> b = *reinterpret_cast<const VecT<T, W>*>(p);
#pragma unroll
  for (int e = 0; e < W; ++e) d[e] += a * widen(b.x[e]);
}

// rp: block-diagonal row pointer; cols: block-diagonal columns (row-major) or columns local to the
// matrix (column-major); um / uk: every matrix's m and k in a uniform batch (column-major: the matrix
// follows from the row), else rmat (row -> matrix) and desc (matrix -> {row_off, m, col_off, k}).
// vw (row-major): B's row segments as vectors of vw values (vec_width_for; 1: one value at a time).
template <typename T, Layout L, int S, int NV>
__global__ void __launch_bounds__(256) split_kernel(const int* __restrict__ rp, const int* __restrict__ cols, const T* __restrict__ vals,
                                                    const int* __restrict__ rmat, const int4* __restrict__ desc, const T* __restrict__ B,
                                                    T* __restrict__ C, int nb, int total_rows, int um, int uk, int vw) {
  static_assert(S >= 1 && S <= 32 && (S & (S - 1)) == 0 && NV >= 1 && (NV & (NV - 1)) == 0, "S and NV are powers of two, S <= 32");
  const int64_t t = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const int row = int(t / S), s = int(threadIdx.x) & (S - 1);
  // No early exit: every lane of a warp meets the shuffles, rows past the batch with no nonzeros.
  const bool live = row < total_rows;
  int p0 = 0, p1 = 0;
  int4 d = make_int4(0, 0, 0, 0);  // column-major: {row_off, m, col_off, k} of the row's matrix
  if (live) {
    p0 = __ldg(rp + row);
    p1 = __ldg(rp + row + 1);
    if (L == Layout::Col) d = um > 0 ? make_int4(row / um * um, um, row / um * uk, uk) : __ldg(desc + __ldg(rmat + row));
  }
  using A = acc_t<T>;
  constexpr int VW = 16 / sizeof(T);
  constexpr int HOLD = NV < S ? 1 : NV / S;  // columns a lane holds after team_sum
  constexpr int DUP = NV < S ? S / NV : 1;   // lanes that hold the same columns
  const T* Bi = B + int64_t(d.z) * nb;
  for (int j0 = blockIdx.y * NV; j0 < nb; j0 += gridDim.y * NV) {  // the same trips for every lane of the block
    A acc[NV];
#pragma unroll
    for (int e = 0; e < NV; ++e) acc[e] = A(0);
#pragma unroll 4
    for (int q = p0 + s; q < p1; q += S) {
      const int c = __ldg(cols + q);
      const A a = widen(__ldg(vals + q));
      // Vectors of W values (vw; uniform over the grid), the widest first.
      auto vecs = [&](auto wc) {
        constexpr int W = decltype(wc)::value;
#pragma unroll
        for (int w = 0; w < NV / W; ++w) {
          if (j0 + w * W >= nb) break;
          split_axpy<T, W>(acc + w * W, a, B + int64_t(c) * nb + j0 + w * W);
        }
      };
      constexpr int V2 = VW / 2 > 1 ? VW / 2 : 1, V4 = VW / 4 > 1 ? VW / 4 : 1;
      if (L == Layout::Row && NV % VW == 0 && vw == VW) {
        vecs(std::integral_constant<int, VW>());
      } else if (L == Layout::Row && V2 > 1 && NV % V2 == 0 && vw == V2) {
        vecs(std::integral_constant<int, V2>());
      } else if (L == Layout::Row && V4 > 1 && NV % V4 == 0 && vw == V4) {
        vecs(std::integral_constant<int, V4>());
      } else {
#pragma unroll
        for (int e = 0; e < NV; ++e)
          if (j0 + e < nb) acc[e] += a * widen(__ldg(L == Layout::Row ? B + int64_t(c) * nb + j0 + e : Bi + int64_t(j0 + e) * d.w + c));
      }
    }
    int base = 0;
    team_sum<S / 2, NV>(acc, s, base);
    if (live && (s & (DUP - 1)) == 0) {
#pragma unroll
      for (int i = 0; i < HOLD; ++i) {
        const int j = j0 + base + i;
        if (j < nb) C[L == Layout::Row ? int64_t(row) * nb + j : int64_t(d.x) * nb + int64_t(j) * d.y + (row - d.x)] = narrow<T>(acc[i]);
      }
    }
  }
}

}  // namespace spb
