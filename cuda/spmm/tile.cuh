// Our dense-tile kernel (batched-tile) for dense-ish batches (nnz/row >= dim/4): a thread block per
// (matrix, block of W columns). A_i is scattered from CSR into a dense k x m tile in shared memory
// (k-major: As[c*mp + r]) and B_i[:, block] is staged next to it (Bs[c*Wp + j]); each thread then
// computes 4 x 4 outputs with register accumulation: per column c of A_i, one 4-vector of A (4 rows)
// and one 4-vector of B (4 columns) feed 16 FMAs, so shared-memory traffic per output is 1/8 of a
// load per term, where the sparse kernels pay three loads (column, value, B) per nonzero. The dense
// product does k terms per output instead of nnz/row, which pays once the density is >= 1/4.
// Zeros added in column order leave every sum equal to the CSR one (same order, exact zeros).
// Row-major C: adjacent threads own adjacent 4-column groups of a row band; column-major C: adjacent
// 4-row groups of a column band, so the stores stay coalesced in either layout.
#pragma once
#include "common.cuh"
#include "vec.cuh"

namespace spb {

// Rows and columns of the shared tiles, padded to the 4-wide register tile.
__host__ __device__ __forceinline__ int tile_pad4(int x) { return (x + 3) & ~3; }
// Pitch of the staged B block: W padded to 4, plus 4 when column-major (the staging stores of
// consecutive rows then spread over 8 banks instead of one).
__host__ __device__ __forceinline__ int tile_bpitch(int W, bool row) { return tile_pad4(W) + (row ? 0 : 4); }

// Four consecutive values from shared memory as vector loads (one float4 or 8-byte 4 x 16-bit, or two
// double2), widened to the accumulation type.
template <typename T>
__device__ __forceinline__ VecT<acc_t<T>, 4> load4(const T* p) {
  VecT<T, 4> v;
  if (sizeof(T) <= 4) {
    v = *reinterpret_cast<const VecT<T, 4>*>(p);
  } else {
    const VecT<T, 2> lo = *reinterpret_cast<const VecT<T, 2>*>(p), hi = *reinterpret_cast<const VecT<T, 2>*>(p + 2);
    v.x[0] = lo.x[0]; v.x[1] = lo.x[1]; v.x[2] = hi.x[0]; v.x[3] = hi.x[1];
  }
  VecT<acc_t<T>, 4> w;
#pragma unroll
  for (int e = 0; e < 4; ++e) w.x[e] = widen(v.x[e]);
  return w;
}

template <typename T, Layout L>
__global__ void __launch_bounds__(256) tile_kernel(const int* __restrict__ row_off, const int* __restrict__ col_off, const int* __restrict__ rp,
                                                   const int* __restrict__ ci, const T* __restrict__ val, const T* __restrict__ B, T* __restrict__ C,
                                                   int nb, int W, int p) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  const int mat = blockIdx.x / p, cb = blockIdx.x - mat * p;
  const int j0 = cb * W, w = min(W, nb - j0);
  const int r0 = __ldg(row_off + mat), m = __ldg(row_off + mat + 1) - r0;
  const int c0 = __ldg(col_off + mat), k = __ldg(col_off + mat + 1) - c0;
  if (w <= 0 || m == 0) return;  // uniform over the block: before any barrier
  const int mp = tile_pad4(m), Wp = tile_bpitch(W, L == Layout::Row);
  T* As = reinterpret_cast<T*>(smem_raw);  // k x mp
  T* Bs = As + size_t(k) * mp;             // k x Wp
  const T* Bi = B + int64_t(c0) * nb;
  T* Ci = C + int64_t(r0) * nb;
  for (int i = threadIdx.x; i < k * mp; i += blockDim.x) As[i] = T(0);
  if (L == Layout::Row) {
    for (int i = threadIdx.x; i < k * Wp; i += blockDim.x) {
      const int r = i / Wp, j = i - r * Wp;
      Bs[i] = j < w ? Bi[int64_t(r) * nb + j0 + j] : T(0);
    }
  } else {
    for (int i = threadIdx.x; i < k * Wp; i += blockDim.x) {
      const int j = i / k, r = i - j * k;
      Bs[r * Wp + j] = j < w ? Bi[int64_t(j0 + j) * k + r] : T(0);
    }
  }
  __syncthreads();  // A's zeros before its nonzeros
  for (int r = threadIdx.x; r < m; r += blockDim.x) {
    const int q1 = __ldg(rp + r0 + r + 1);
    for (int q = __ldg(rp + r0 + r); q < q1; ++q) As[__ldg(ci + q) * mp + r] = __ldg(val + q);
  }
  __syncthreads();
  const int TR = mp / 4, TC = tile_pad4(W) / 4;
  // 4-wide stores where C's addresses allow: row-major when nb % 4 == 0 (j0 and 4-column groups are
  // then aligned), column-major when m % 4 == 0 and C_i starts on a multiple of 4.
  const bool vec = L == Layout::Row ? nb % 4 == 0 : (m % 4 == 0 && (int64_t(r0) * nb) % 4 == 0);
  for (int t = threadIdx.x; t < TR * TC; t += blockDim.x) {
    const int tr = L == Layout::Row ? t / TC : t % TR;
    const int tc = L == Layout::Row ? t - tr * TC : t / TR;
    acc_t<T> acc[4][4];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int j = 0; j < 4; ++j) acc[i][j] = acc_t<T>(0);
    for (int c = 0; c < k; ++c) {
      const VecT<acc_t<T>, 4> a = load4(As + c * mp + tr * 4);
      const VecT<acc_t<T>, 4> b = load4(Bs + c * Wp + tc * 4);
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] += a.x[i] * b.x[j];
    }
    if (vec && tr * 4 + 3 < m && tc * 4 + 3 < w) {
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        VecT<T, 4> o;
#pragma unroll
        for (int f = 0; f < 4; ++f) o.x[f] = narrow<T>(L == Layout::Row ? acc[e][f] : acc[f][e]);
        T* dst = L == Layout::Row ? Ci + int64_t(tr * 4 + e) * nb + j0 + tc * 4 : Ci + int64_t(j0 + tc * 4 + e) * m + tr * 4;
        if (sizeof(T) <= 4) {
          *reinterpret_cast<VecT<T, 4>*>(dst) = o;
        } else {
          VecT<T, 2> lo, hi;
          lo.x[0] = o.x[0]; lo.x[1] = o.x[1]; hi.x[0] = o.x[2]; hi.x[1] = o.x[3];
          *reinterpret_cast<VecT<T, 2>*>(dst) = lo;
          *reinterpret_cast<VecT<T, 2>*>(dst + 2) = hi;
        }
      }
      continue;
    }
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const int r = tr * 4 + i, jj = tc * 4 + j;
        if (r < m && jj < w) Ci[L == Layout::Row ? int64_t(r) * nb + j0 + jj : int64_t(j0 + jj) * m + r] = narrow<T>(acc[i][j]);
      }
  }
}

}  // namespace spb
