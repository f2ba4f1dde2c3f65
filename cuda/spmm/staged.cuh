// Our staged kernel (batched-staged): a thread block per (matrix, block of W columns of B). The block
// first copies B_i[:, j0 : j0+W] into shared memory with coalesced loads (either layout), so every
// value of B leaves DRAM/L2 once however many rows of A_i use it, then computes C_i[:, j0 : j0+W] from
// shared memory with A_i's rows read through L1 and writes it coalesced:
//   row-major: adjacent threads own adjacent (V-wide) columns of one row (A's row is a broadcast),
//   column-major: adjacent threads own adjacent rows of one column (C_i[j*m + r] consecutive).
// Shared memory: k_i rows of W values, pitch W (row-major, vector loads) or W rounded up to an odd
// number (column-major: lanes of different rows read different B rows; an odd pitch spreads them over
// the banks, and the staging stores of 32 consecutive rows hit 32 different banks).
#pragma once
#include "common.cuh"
#include "vec.cuh"

namespace spb {

__host__ __device__ __forceinline__ int staged_pitch(int W, bool row) { return row ? W : (W | 1); }

template <typename T, Layout L, int V>
__global__ void __launch_bounds__(256) staged_kernel(const int* __restrict__ row_off, const int* __restrict__ col_off, const int* __restrict__ rp,
                                                     const int* __restrict__ ci, const T* __restrict__ val, const T* __restrict__ B, T* __restrict__ C,
                                                     int nb, int W, int p) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  using A = acc_t<T>;
  T* Bs = reinterpret_cast<T*>(smem_raw);  // B stays in T (16-bit: half the shared memory); sums in A
  const int mat = blockIdx.x / p, cb = blockIdx.x - mat * p;
  const int j0 = cb * W, w = min(W, nb - j0);
  const int r0 = __ldg(row_off + mat), m = __ldg(row_off + mat + 1) - r0;
  const int c0 = __ldg(col_off + mat), k = __ldg(col_off + mat + 1) - c0;
  if (w <= 0 || m == 0) return;  // uniform over the block: before the barrier
  const int pitch = staged_pitch(W, L == Layout::Row);
  const T* Bi = B + int64_t(c0) * nb;
  T* Ci = C + int64_t(r0) * nb;
  // Stage B_i's column block (a zero-row matrix stages nothing; its rows of C are zero).
  if (L == Layout::Row) {
    const int wv = w / V;  // V > 1 only when nb % V == 0 and W % V == 0, so w % V == 0
    for (int idx = threadIdx.x; idx < k * wv; idx += blockDim.x) {
      const int r = idx / wv, jv = idx - r * wv;
      *reinterpret_cast<VecT<T, V>*>(Bs + r * pitch + jv * V) = *reinterpret_cast<const VecT<T, V>*>(Bi + int64_t(r) * nb + j0 + jv * V);
    }
  } else {
    for (int idx = threadIdx.x; idx < k * w; idx += blockDim.x) {
      const int j = idx / k, r = idx - j * k;
      Bs[r * pitch + j] = Bi[int64_t(j0 + j) * k + r];
    }
  }
  __syncthreads();
  if (L == Layout::Row) {
    const int wv = w / V;
    for (int idx = threadIdx.x; idx < m * wv; idx += blockDim.x) {
      const int r = idx / wv, jv = idx - r * wv;
      A acc[V];
#pragma unroll
      for (int e = 0; e < V; ++e) acc[e] = A(0);
      const int q1 = __ldg(rp + r0 + r + 1);
      for (int q = __ldg(rp + r0 + r); q < q1; ++q) {
        const A a = widen(__ldg(val + q));
        const VecT<T, V> b = *reinterpret_cast<const VecT<T, V>*>(Bs + __ldg(ci + q) * pitch + jv * V);
#pragma unroll
        for (int e = 0; e < V; ++e) acc[e] += a * widen(b.x[e]);
      }
      store_vec<T, V>(Ci + int64_t(r) * nb + j0 + jv * V, acc);
    }
  } else {
    for (int idx = threadIdx.x; idx < m * w; idx += blockDim.x) {
      const int j = idx / m, r = idx - j * m;
      A acc = A(0);
      const int q1 = __ldg(rp + r0 + r + 1);
      for (int q = __ldg(rp + r0 + r); q < q1; ++q) acc += widen(__ldg(val + q)) * widen(Bs[__ldg(ci + q) * pitch + j]);
      Ci[int64_t(j0 + j) * m + r] = narrow<T>(acc);
    }
  }
}

}  // namespace spb
