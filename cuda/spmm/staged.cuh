// Our staged kernels (batched-staged): a thread block per (matrix, block of W columns of B). The block
// first copies B_i[:, j0 : j0+W] into shared memory with coalesced loads (either layout), so every
// value of B leaves DRAM/L2 once however many rows of A_i use it, then computes C_i[:, j0 : j0+W] from
// shared memory and writes it coalesced. Where rows are long and B_i large, the sparse kernels that
// read B through L1 re-read it from L2 for every nonzero (L2-bound); here each nonzero costs one
// shared-memory read of B instead.
//   row-major (staged_row_kernel): a group of G lanes owns a row, V consecutive columns a lane (W = G V,
//     16-byte vectors where nb allows); A_i's nonzeros, {value, column} records, are staged beside B_i
//     and read by the whole group at one address (a broadcast), several in flight;
//   column-major (staged_col_kernel): adjacent threads own adjacent rows of one column (C_i[j*m + r]
//     consecutive), A's rows through L1.
// Shared memory: k_i rows of W values, pitch W (row-major, then the records from rec_off bytes: all of
// A_i's, or a run of rows at a time where they do not fit) or W rounded up to an odd number (column-major:
// lanes of different rows read different B rows; an odd pitch spreads them over the banks, and the
// staging stores of 32 consecutive rows hit 32 different banks).
#pragma once
#include "common.cuh"
#include "vec.cuh"
#include "async_copy.cuh"

namespace spb {

__host__ __device__ __forceinline__ int staged_col_pitch(int W) { return W | 1; }

// A nonzero of A as the row-major kernel reads it: value and column in one aligned shared-memory load.
template <typename T>
struct alignas(sizeof(T) == 8 ? 16 : 8) StagedNz {
  T v;
  int c;
};
constexpr int kStagedThreads = 256;
// staged_row_kernel's skew_mask where it skews: lane group g starts its row's walk at record g % 16 (16 bank pairs of
// 8-byte records).
constexpr int kStagedSkewMask = 15;

// Lanes of a group of G = 1 << lg own V columns each of one row; 256 / G rows a block at a time; room
// for `cap` records of A_i in shared memory from rec_off bytes. Row-major: nb % V == 0 (so every copied
// vector lies inside B's row). Columns of the last block past nb are staged as nothing and never stored:
// the lanes that own them read shared memory nobody wrote, which only reaches accumulators that are
// dropped. (A block taking several column blocks of its matrix, the
// next copied into a second buffer while it computed, was 5-40 % slower on f64: the second buffer
// halved W or the blocks an SM, and overlap between blocks was worth more: docs/spmm-notes.md.)
// S > 1 (few matrices): a block takes slice `sl` of its matrix's rows, whole passes of 256 / G rows, so
// that a small batch still fills the SMs with lanes that share a row's records; each slice stages the
// column block of B_i again. Column-major (L = Col): the copy transposes B_i's block into the same
// k x W row-major layout, and each lane stores its V values of C one by one (C_i[j * m + r]).
// Row-major: at most 32 registers (8 blocks an SM) but f32 x 4 (43, as before): the slices took 8-16 more
// in f64 x 2, f32 x 2 and 16-bit, and f64 d128, 3 a row, nb 16 ran 12.1 -> 16.0 us with the blocks lost.
template <typename T, Layout L, int V>
__global__ void __launch_bounds__(kStagedThreads, L == Layout::Row && !(sizeof(T) == 4 && V == 4) ? 8 : 0) staged_row_kernel(const int* __restrict__ row_off, const int* __restrict__ col_off,
                                                                  const int* __restrict__ rp, const StagedNz<T>* __restrict__ nz,
                                                                  const T* __restrict__ B, T* __restrict__ C, int nb, int lg, int p,
                                                                  int rec_off, int cap, int S, int skew_mask) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  using A = acc_t<T>;
  using Vec = VecT<T, V>;
  constexpr bool row = L == Layout::Row;
  T* Bs = reinterpret_cast<T*>(smem_raw);
  const int W = V << lg;
  const int ps = p * S, mat = blockIdx.x / ps, rem = blockIdx.x - mat * ps, cb = rem / S, sl = rem - cb * S;
  const int j0 = cb * W, w = min(W, nb - j0);
  const int r0 = __ldg(row_off + mat), m = __ldg(row_off + mat + 1) - r0;
  const int c0 = __ldg(col_off + mat), k = __ldg(col_off + mat + 1) - c0;
  const int P = kStagedThreads >> lg, R = S == 1 ? m : (m + S - 1) / S + P - 1 - ((m + S - 1) / S + P - 1) % P;
  const int rs = sl * R, re = min(m, rs + R);  // the block's rows
  if (w <= 0 || rs >= re) return;  // uniform over the block: before the barrier
  const T* Bi = B + int64_t(c0) * nb + (row ? j0 : int64_t(j0) * k);
  T* Ci = C + int64_t(r0) * nb + (row ? j0 : int64_t(j0) * m);
  // The matrix's records too (from the 16-byte boundary at or before its first): read from global
  // memory, a record was a dependent L2 round trip every few nonzeros, and the kernel waited on them
  // (f64 d128, 16 a row, nb 256: 483 -> 331 us). Where they pass `cap` records, a run of rows at a time.
  constexpr int RV = 16 / sizeof(StagedNz<T>);  // records a 16-byte copy
  StagedNz<T>* Rs = reinterpret_cast<StagedNz<T>*>(smem_raw + rec_off);
  if constexpr (row) {
    const int wv = w / V;
    for (int idx = threadIdx.x; idx < k * wv; idx += kStagedThreads) {
      const int r = idx / wv, jv = idx - r * wv;
      T* d = Bs + r * W + jv * V;
      const T* src = Bi + int64_t(r) * nb + jv * V;
      if constexpr (sizeof(Vec) == 16) cp_async16(d, src);
      else *reinterpret_cast<Vec*>(d) = *reinterpret_cast<const Vec*>(src);
    }
  } else {
    // B_i's column block is w columns of k consecutive values, transposed: adjacent threads take adjacent
    // columns of a row (shared-memory stores to distinct banks; along a column, 32 threads stored W apart
    // hit the same few banks), and a column's next rows come from the lines L1 (cp.async.ca) just fetched.
    for (int idx = threadIdx.x; idx < k * w; idx += kStagedThreads) {
      const int r = idx / w, jj = idx - r * w;
      cp_async_value(Bs + r * W + jj, Bi + int64_t(jj) * k + r);
    }
  }
  const int j = (threadIdx.x & ((1 << lg) - 1)) * V;
  const T* Bl = Bs + j;
  constexpr int U = 4;  // records (and their B vectors) in flight a lane
  for (int ra = rs; ra < re;) {
    // Rows ra .. rb: the most whose records, copied from qa to the 16-byte boundary past their last,
    // fit (the host makes sure the longest row does). Uniform over the block.
    const int qa = __ldg(rp + r0 + ra) / RV * RV;
    auto fit = [&](int r) { return __ldg(rp + r0 + r) + RV - 1 - qa <= cap; };
    int rb = re;
    if (!fit(re)) {
      int lo = ra + 1, hi = re - 1;  // fit(lo) holds, fit(hi + 1) does not
      while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (fit(mid)) lo = mid;
        else hi = mid - 1;
      }
      rb = lo;
    }
    const int ql = __ldg(rp + r0 + rb);
    for (int i = threadIdx.x * RV; qa + i < ql; i += kStagedThreads * RV) cp_async16(Rs + i, nz + qa + i);
    cp_async_commit();
    cp_async_wait<0>();
    __syncthreads();
    for (int r = ra + (threadIdx.x >> lg); r < rb; r += kStagedThreads >> lg) {
      A acc[V];
#pragma unroll
      for (int e = 0; e < V; ++e) acc[e] = A(0);
      const int q0 = __ldg(rp + r0 + r), n = __ldg(rp + r0 + r + 1) - q0;
      // Rows of one length start a multiple of 8 n bytes apart in Rs, so with n a multiple of 16 (rows of 16-64 in uniform
      // batches) a warp's groups read their records from the same banks (ncu: 6.6-way conflicts, 64 % of the shared-load
      // wavefronts, on batch 10 of d1024, 64 a row). Group g walks its row from record g % 16 on, wrapping around: the
      // same sum in another order, its records over 16 bank pairs. skew_mask 0 ($SPB_SPMM_STAGED_SKEW=0): from the first.
      int sk = (threadIdx.x >> lg) & skew_mask;
      if (sk >= n) sk = n > 0 ? sk % n : 0;
      const StagedNz<T>* Rr = Rs + (q0 - qa);
      int lo = sk, hi = n;  // records sk .. n - 1, then 0 .. sk - 1
#pragma unroll 1
      for (int part = 0; part < 2; ++part, hi = sk, lo = 0) {
        int q = lo;
        for (; q + U <= hi; q += U) {
          T a[U];
          int c[U];
#pragma unroll
          for (int u = 0; u < U; ++u) a[u] = Rr[q + u].v, c[u] = Rr[q + u].c;
          Vec b[U];
#pragma unroll
          for (int u = 0; u < U; ++u) b[u] = *reinterpret_cast<const Vec*>(Bl + c[u] * W);
#pragma unroll
          for (int u = 0; u < U; ++u)
#pragma unroll
            for (int e = 0; e < V; ++e) acc[e] += widen(a[u]) * widen(b[u].x[e]);
        }
        for (; q < hi; ++q) {
          const T a = Rr[q].v;
          const Vec b = *reinterpret_cast<const Vec*>(Bl + Rr[q].c * W);
#pragma unroll
          for (int e = 0; e < V; ++e) acc[e] += widen(a) * widen(b.x[e]);
        }
      }
      if constexpr (row) {
        if (j < w) store_vec<T, V>(Ci + int64_t(r) * nb + j, acc);
      } else {
#pragma unroll
        for (int e = 0; e < V; ++e)
          if (j + e < w) Ci[int64_t(j + e) * m + r] = narrow<T>(acc[e]);
      }
    }
    ra = rb;
    if (ra < re) __syncthreads();  // everyone is done with the records before the next run's copies
  }
}

// Column-major (see the top of the file): pitch W | 1.
template <typename T>
__global__ void __launch_bounds__(kStagedThreads) staged_col_kernel(const int* __restrict__ row_off, const int* __restrict__ col_off,
                                                                  const int* __restrict__ rp, const int* __restrict__ ci,
                                                                  const T* __restrict__ val, const T* __restrict__ B, T* __restrict__ C,
                                                                  int nb, int W, int p) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  using A = acc_t<T>;
  T* Bs = reinterpret_cast<T*>(smem_raw);  // B stays in T (16-bit: half the shared memory); sums in A
  const int mat = blockIdx.x / p, cb = blockIdx.x - mat * p;
  const int j0 = cb * W, w = min(W, nb - j0);
  const int r0 = __ldg(row_off + mat), m = __ldg(row_off + mat + 1) - r0;
  const int c0 = __ldg(col_off + mat), k = __ldg(col_off + mat + 1) - c0;
  if (w <= 0 || m == 0) return;  // uniform over the block: before the barrier
  const int pitch = staged_col_pitch(W);
  const T* Bi = B + int64_t(c0) * nb;
  T* Ci = C + int64_t(r0) * nb;
  // Stage B_i's column block (a zero-row matrix stages nothing; its rows of C are zero).
  for (int idx = threadIdx.x; idx < k * w; idx += kStagedThreads) {
    const int j = idx / k, r = idx - j * k;
    Bs[r * pitch + j] = Bi[int64_t(j0 + j) * k + r];
  }
  __syncthreads();
  for (int idx = threadIdx.x; idx < m * w; idx += kStagedThreads) {
    const int j = idx / m, r = idx - j * m;
    A acc = A(0);
    const int q1 = __ldg(rp + r0 + r + 1);
    for (int q = __ldg(rp + r0 + r); q < q1; ++q) acc += widen(__ldg(val + q)) * widen(Bs[__ldg(ci + q) * pitch + j]);
    Ci[int64_t(j0 + j) * m + r] = narrow<T>(acc);
  }
}

}  // namespace spb
