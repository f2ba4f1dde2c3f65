// Our column-major kernel (batched-col): B_i (k_i x nb) and C_i (m_i x nb) stored column by column,
// C_i[j*m_i + r]. Lanes map to consecutive rows of the batch (its block-diagonal rows), so a warp's
// store of column j of C_i is 32 consecutive values and its loads of B_i[j*k_i + c] fall in the one
// k_i-value column j of B_i (a few sectors, L1-resident across the row's nonzeros). blockIdx.y walks
// the columns of C in chunks of JC, so one thread keeps its row of A in registers (K ELL slots) or
// re-reads it from L1 (K = 0: CSR, any row length) for every chunk it owns.
#pragma once
#include "common.cuh"
#include "async_copy.cuh"

namespace spb {

// Where row `row` of the block-diagonal batch lives: x = row_off of its matrix, y = m, z = col_off, w = k.
// One int4 per matrix, found through the per-row matrix index (both built on the host in setup), or
// computed from the row when every matrix has the same m and k (um > 0).
// seg_full, seg_last: uk * JC and uk * (nb % JC) (STAGE: the values a matrix stages for a whole chunk of
// columns and for the last chunk where nb % JC != 0).
// STAGE (1: uniform batches, 2: mixed ones): the block first copies columns j0 .. j0 + JC of the B_i its
// rows use (contiguous in column-major: JC * k_i values a matrix) into shared memory, issued before A's
// row is loaded, so that B's loads no longer wait on A's (one global round trip in the chain instead of
// two); then B comes from shared memory. Matrix t's values sit at (col_off_t - col_off of the block's
// first matrix) * JC. col_stage_bytes: the uniform batches' shared memory (mixed: the host's widest
// block, col_stage_span).
// DB kernels, buf > 0 (a block with two or more chunks of columns): two buffers of buf values each; the next
// chunk's copy is issued before the current one is computed, so that its latency hides behind the products and
// the stores instead of opening every chunk (one wait a chunk either way). buf = 0: one buffer, as without DB.
// Only 4- and 8-byte values get DB kernels: with its runtime buffer test, 16-bit one-buffer cells ran 1.1-1.2x
// slower (docs/spmm-notes.md, "Evict-first C stores; batched-col's two buffers merged").
template <typename T>
constexpr bool col_db = sizeof(T) >= 4;
// R: rows a lane (col_kernel's R). Matrices a block of 256 lanes (256 R rows) can touch.
__host__ __device__ inline int col_stage_mats(int um, int R = 1) { return (256 * R - 1) / um + 2; }
template <typename T>
inline size_t col_stage_bytes(int um, int uk, int jc, int R = 1) { return size_t(col_stage_mats(um, R)) * uk * jc * sizeof(T); }

// R = 2 (16-bit values, every m_i even; the plan takes it for rows of at most 3, ColMajor::plan): a lane owns two
// adjacent rows, so that its store of a column of C is one 4-byte word and a warp's 128 bytes (with a row a lane, 64
// bytes of 2-byte stores). The rows' pairs never straddle two matrices (every row_off is even); the lane's first row
// decides the matrix.
template <typename T, int K, int JC, int STAGE = 0, bool DB = false, int R = 1>
__global__ void __launch_bounds__(256) col_kernel(const int* __restrict__ rmat, const int4* __restrict__ desc, const int* __restrict__ rp,
                                                  const int* __restrict__ cols, const T* __restrict__ vals, const T* __restrict__ B, T* __restrict__ C,
                                                  int nb, int total_rows, FastDiv um, int uk, FastDiv seg_full, FastDiv seg_last, int buf) {
  static_assert(R == 1 || (R == 2 && sizeof(T) == 2 && STAGE != 2), "two rows a lane: 16-bit values, not the mixed staging");
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) * R;
  if (!STAGE && row >= total_rows) return;
  const bool live = row < total_rows;  // STAGE: every thread copies and meets the barriers
  // Uniform batch (um = m, uk = k of every matrix): the matrix follows from the row, no lookups (and
  // no divisions: um.q is a multiply and a shift).
  const int mat = um.d > 0 ? um.q(row) : 0;
  const int4 d = um.d > 0 ? make_int4(mat * um.d, um.d, mat * uk, uk) : __ldg(desc + (live ? __ldg(rmat + row) : 0));
  const T* Bi = B + int64_t(d.z) * nb;
  T* Ci = C + int64_t(d.x) * nb + (row - d.x);
  using A = acc_t<T>;
  constexpr int KS = K > 0 ? K : 1;
  int c[R][KS];
  A a[R][KS];
  int p0[R] = {}, p1[R] = {};
  extern __shared__ __align__(16) unsigned char smem_raw[];
  T* Bs = reinterpret_cast<T*>(smem_raw);
  // The block's first and last matrices (STAGE 2: looked up) and the first one's col_off.
  const int rfirst = int(blockIdx.x * blockDim.x) * R, rlast = min(rfirst + int(blockDim.x) * R, total_rows) - 1;
  const int mfirst = STAGE == 1 ? um.q(rfirst) : STAGE == 2 ? __ldg(rmat + rfirst) : 0;
  const int mlast = STAGE == 2 ? __ldg(rmat + rlast) : 0;
  const int z0 = STAGE == 1 ? mfirst * uk : STAGE == 2 ? __ldg(&desc[mfirst].z) : 0;
  const int boff = STAGE ? (d.z - z0) * JC : 0;  // this row's matrix within a buffer
  const T* Bl = Bs + boff;
  // STAGE: columns j0 .. j0 + JC of the block's matrices; 16-byte copies where uk values are whole 16 bytes.
  // A thread's copies: element e is matrix e / seg, offset e % seg, seg = uk * (the chunk's columns), by a
  // multiply-shift made on the host: seg_full's in whole chunks, seg_last's in a last, narrower one. (A
  // divisor made here is a 64-bit division, a call that spilled; e / seg behind a branch was 6 % slower
  // at batch 10000: docs/spmm-notes.md.)
  // Mixed batches: matrix by matrix, k_t x (the chunk's columns) contiguous values each, a value a copy
  // (their offsets follow no common alignment). The block's threads stride over the matrices' values as
  // one run (e: this thread's next value, counted from the current matrix's first), so that small
  // matrices do not leave most threads idle.
  auto stage_mixed = [&](int j0, T* Bd) {
    const int jw = min(JC, nb - j0);
    int e = threadIdx.x;
    for (int t = mfirst; t <= mlast; ++t) {
      const int4 dt = __ldg(desc + t);
      const int n = dt.w * jw;
      if (e < n) {
        const T* src = B + int64_t(dt.z) * nb + int64_t(j0) * dt.w;
        T* dst = Bd + (dt.z - z0) * JC;
        for (; e < n; e += blockDim.x) cp_async_value(dst + e, src + e);
      }
      e -= n;
    }
    cp_async_commit();
  };
  auto stage = [&](int j0, T* Bd) {
    if constexpr (STAGE == 2) {
      stage_mixed(j0, Bd);
      return;
    }
    const int last = um.q(rlast);
    const bool full = nb - j0 >= JC;
    const int seg = uk * min(JC, nb - j0), n = (last - mfirst + 1) * seg;
    const unsigned dm = full ? seg_full.m : seg_last.m;
    const int ds = full ? seg_full.s : seg_last.s;
    auto mat_of = [&](int e) { return FastDiv::q(e, dm, ds); };
    const T* src = B + int64_t(mfirst) * uk * nb + int64_t(j0) * uk;
    if ((uk * sizeof(T)) % 16 == 0) {
      constexpr int V = 16 / sizeof(T);
      for (int e = threadIdx.x * V; e < n; e += blockDim.x * V) {
        const int t = mat_of(e), x = e - t * seg;
        cp_async16(Bd + t * uk * JC + x, src + int64_t(t) * uk * nb + x);
      }
    } else {
      for (int e = threadIdx.x; e < n; e += blockDim.x) {
        const int t = mat_of(e), x = e - t * seg;
        Bd[t * uk * JC + x] = __ldg(src + int64_t(t) * uk * nb + x);
      }
    }
    cp_async_commit();
  };
  if (STAGE) stage(blockIdx.y * JC, Bs);
  if (live) {
#pragma unroll
    for (int u = 0; u < R; ++u) {
      if (K > 0) {
#pragma unroll
        for (int s = 0; s < KS; ++s) { c[u][s] = __ldg(cols + int64_t(row + u) * K + s); a[u][s] = widen(__ldg(vals + int64_t(row + u) * K + s)); }
      } else {
        p0[u] = __ldg(rp + row + u);
        p1[u] = __ldg(rp + row + u + 1);
      }
    }
  }
  // B_i[c, j0 + h]: from shared memory (STAGE) or through L1
  auto bval = [&](int j0, int h, int cc) { return STAGE ? widen(Bl[h * d.w + cc]) : widen(__ldg(Bi + int64_t(j0 + h) * d.w + cc)); };
  int cur = 0;  // DB: the buffer this chunk is in
  for (int j0 = blockIdx.y * JC; j0 < nb; j0 += gridDim.y * JC) {
    if (STAGE) {
      if (DB && buf > 0) {
        // The next chunk into the other buffer (everyone finished with it at the last chunk's end), then
        // wait for this one only.
        const int jn = j0 + gridDim.y * JC;
        if (jn < nb) {
          stage(jn, Bs + (cur ^ 1) * buf);
          cp_async_wait<1>();
        } else {
          cp_async_wait<0>();
        }
        __syncthreads();
        Bl = Bs + cur * buf + boff;
      } else {
        if (j0 != int(blockIdx.y * JC)) {  // the next columns, once everyone is done with the last
          __syncthreads();
          stage(j0, Bs);
        }
        cp_async_wait<0>();
        __syncthreads();
      }
    }
    // STAGE: the last block's idle rows skip the products but meet every barrier at the same __syncthreads
    // as the rows beside them (bar.sync is .aligned: a warp split between two barriers hung on the H100).
    if (live) {
      A acc[R][JC];
#pragma unroll
      for (int u = 0; u < R; ++u)
#pragma unroll
        for (int h = 0; h < JC; ++h) acc[u][h] = A(0);
#pragma unroll
      for (int u = 0; u < R; ++u) {
        if (K > 0) {
#pragma unroll
          for (int s = 0; s < KS; ++s) {
            if (c[u][s] < 0) continue;
#pragma unroll
            for (int h = 0; h < JC; ++h)
              if (JC == 1 || j0 + h < nb) acc[u][h] += a[u][s] * bval(j0, h, c[u][s]);
          }
        } else {
          for (int q = p0[u]; q < p1[u]; ++q) {
            const int cq = __ldg(cols + q);
            const A aq = widen(__ldg(vals + q));
#pragma unroll
            for (int h = 0; h < JC; ++h)
              if (JC == 1 || j0 + h < nb) acc[u][h] += aq * bval(j0, h, cq);
          }
        }
      }
#pragma unroll
      for (int h = 0; h < JC; ++h) {
        if (JC > 1 && j0 + h >= nb) continue;
        if constexpr (R == 2)  // rows row, row + 1 of column j0 + h: one aligned word (row_off, m and row even)
          *reinterpret_cast<uint32_t*>(Ci + int64_t(j0 + h) * d.y) = pack16<T>(acc[0][h], acc[1][h]);
        else
          Ci[int64_t(j0 + h) * d.y] = narrow<T>(acc[0][h]);
      }
    }
    if (STAGE && DB && buf > 0) {  // everyone is done with this buffer: the chunk after next goes there
      __syncthreads();
      cur ^= 1;
    }
  }
}

}  // namespace spb
