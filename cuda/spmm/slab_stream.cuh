// batched-slab's streamed row-major path (slab_stream_kernel): 16-bit row-major B_i and C_i, every m_i at most
// kTileColMaxDim, nb a multiple of 4; launched for k_i <= 32 (slab_streams), written for k_i <= 64. The product turned
// around as in tile_col_kernel: C_i^T = B_i^T A_i^T, with B_i^T as the m16n8k16 A operand and A_i's rows (dense in
// shared memory) as its B operand, so that B_i needs no shared memory, no ldmatrix and no block barrier. A row-major
// B_i holds k apart, and a fragment register wants two k of one column: a lane loads 4 consecutive columns (2 words,
// 8 bytes) of each of 8 rows of B_i, k = 32 c + 8 t + r (chunk c, t = lane % 4), and pairs rows r, r + 1 by byte
// permutes (PRMT, a word a fragment register). The fragment's row g is column 4 g + 2 q of the 32-column group for its
// M tile q (0, 1) and g + 8 column 4 g + 2 q + 1, so that after the products a lane holds, for each of C_i's rows 2 t
// and 2 t + 1 of an n8 tile, the 4 consecutive columns 4 g .. 4 g + 3 of the group: one 8-byte store straight from the
// accumulators, no transpose (slab_kernel's and tile_kernel's row-major C go through a quad transpose). k's order
// inside a step is the lane's (step s: k = 8 t + 4 s + {0, 1} for the fragment's columns 2 t, 2 t + 1 and + {2, 3}
// for 2 t + 8, 2 t + 9), which A_i's row takes from one 16-byte shared-memory load (tile_col_kernel's).
#pragma once
#include <cstdint>
#include "tile_col.cuh"

namespace spb {

// A block: matrix blockIdx.x / S, its 32-column groups part blockIdx.x % S of S; warp w of W takes every W-th group (the
// host's W: each warp 4 groups or more where the matrix has them). KC: 32-value chunks of k (k <= 32 KC; 2 measured
// mixed, see slab_streams; 3 and 4, with 2 columns a lane for the registers, 0.96-1.25x slab_kernel's time, slower in 5
// of 8 cells: docs/spmm-notes.md). apos: each nonzero's place in the dense A_i (row * tile_col_pitch(KC) / 2 + column;
// CSR order, made on the host). A row's offset in B_i is an int ((32 KC - 1) nb < 2^31: slab_streams bounds nb).
template <typename T, int KC, int W>
__global__ void __launch_bounds__(32 * W, 16 / W) slab_stream_kernel(const int* __restrict__ row_off, const int* __restrict__ col_off,
                                                                      const int* __restrict__ rp, const uint16_t* __restrict__ apos,
                                                                      const T* __restrict__ val, const T* __restrict__ B, T* __restrict__ C,
                                                                      int nb, int S) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  static_assert(sizeof(T) == 2 && (KC == 1 || KC == 2), "16-bit values, k <= 64");
  extern __shared__ __align__(16) unsigned char ss_smem[];
  constexpr int NV = 4, P = tile_col_pitch(KC), GW = 8 * NV, NQ = NV / 2;  // columns a lane; A's pitch (bytes); a group's columns; words a lane a row
  const int mat = blockIdx.x / S, part = blockIdx.x - mat * S;
  const int r0 = __ldg(row_off + mat), m = __ldg(row_off + mat + 1) - r0;
  const int c0 = __ldg(col_off + mat), k = __ldg(col_off + mat + 1) - c0;
  const int ng = (nb + GW - 1) / GW, g0 = int(int64_t(ng) * part / S), g1 = int(int64_t(ng) * (part + 1) / S);
  if (m == 0 || g0 >= g1) return;  // uniform over the block: before the barriers
  const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31, g = lane >> 2, t = lane & 3;
  const T* Bi = B + int64_t(c0) * nb + int64_t(8 * t) * nb + NV * g;
  T* Ci = C + int64_t(r0) * nb + NV * g;
  // A group's rows 32 c + 8 t + r of columns grp * GW + NV g .. + NV - 1 (zeros past k and nb), a word a column pair.
  auto load = [&](int grp, uint32_t (&x)[KC][8][NQ]) {
    const bool jin = grp * GW + NV * g < nb;
    const T* p = Bi + grp * GW;
#pragma unroll
    for (int c = 0; c < KC; ++c)
#pragma unroll
      for (int r = 0; r < 8; ++r) {
        uint2 w{};
        if (jin && 32 * c + 8 * t + r < k) w = __ldg(reinterpret_cast<const uint2*>(p + (32 * c + r) * nb));
        x[c][r][0] = w.x, x[c][r][1] = w.y;
      }
  };
  int grp = g0 + warp;
  uint32_t x[KC][8][NQ];
  if (grp < g1) load(grp, x);  // in flight during A's fill
  // A_i dense: rows 0 .. m - 1 and up to the next n8 tile zeroed (columns past k meet B's zeros), then its nonzeros, a
  // thread a nonzero.
  for (int e = tid; e < (m + 7) / 8 * 8 * (P / 16); e += 32 * W) reinterpret_cast<uint4*>(ss_smem)[e] = make_uint4(0, 0, 0, 0);
  const int q0 = __ldg(rp + r0), q1 = __ldg(rp + r0 + m);
  __syncthreads();
  T* As = reinterpret_cast<T*>(ss_smem);
  for (int q = q0 + tid; q < q1; q += 32 * W) As[__ldg(apos + q)] = __ldg(val + q);
  __syncthreads();
  const unsigned char* a_lane = ss_smem + g * P + 16 * t;
  const int nt8 = (m + 7) / 8;  // n8 tiles of C_i's rows (rows past m: A's rows there are not read, C's not stored)
  for (; grp < g1; grp += W) {
    // Fragments: f[c][s][q] (M tile q, step s of chunk c): rows 8 t + 4 s + {0, 1} (regs 0, 1: low and high column of
    // the pair) and + {2, 3} (regs 2, 3), paired by byte permutes.
    uint32_t f[KC][2][NQ][4];
#pragma unroll
    for (int c = 0; c < KC; ++c)
#pragma unroll
      for (int s = 0; s < 2; ++s)
#pragma unroll
        for (int q = 0; q < NQ; ++q) {
          f[c][s][q][0] = __byte_perm(x[c][4 * s][q], x[c][4 * s + 1][q], 0x5410);
          f[c][s][q][1] = __byte_perm(x[c][4 * s][q], x[c][4 * s + 1][q], 0x7632);
          f[c][s][q][2] = __byte_perm(x[c][4 * s + 2][q], x[c][4 * s + 3][q], 0x5410);
          f[c][s][q][3] = __byte_perm(x[c][4 * s + 2][q], x[c][4 * s + 3][q], 0x7632);
        }
    if (grp + W < g1) load(grp + W, x);  // the next group's rows in flight during the products
    const bool jin = grp * GW + NV * g < nb;
    T* cg = Ci + grp * GW;
    // Each n8 tile of C_i's rows: products, then rows 8 u + 2 t and + 1 straight from the accumulators.
    for (int u = 0; u < nt8; ++u) {
      float acc[NQ][4];
#pragma unroll
      for (int q = 0; q < NQ; ++q) acc[q][0] = acc[q][1] = acc[q][2] = acc[q][3] = 0.f;
#pragma unroll
      for (int c = 0; c < KC; ++c) {
        const uint4 a = *reinterpret_cast<const uint4*>(a_lane + u * 8 * P + 64 * c);
#pragma unroll
        for (int s = 0; s < 2; ++s) {
          typename TileMma16<T>::B b;
          b.r[0] = s ? a.z : a.x, b.r[1] = s ? a.w : a.y;
#pragma unroll
          for (int q = 0; q < NQ; ++q) {
            typename TileMma16<T>::A fa;
            fa.r[0] = f[c][s][q][0], fa.r[1] = f[c][s][q][1], fa.r[2] = f[c][s][q][2], fa.r[3] = f[c][s][q][3];
            TileMma16<T>::mma(acc[q], fa, b);
          }
        }
      }
      const int row = 8 * u + 2 * t;
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        uint32_t w[NQ];
#pragma unroll
        for (int q = 0; q < NQ; ++q) w[q] = pack16<T>(acc[q][h], acc[q][h + 2]);
        if (jin && row + h < m) store_c(reinterpret_cast<uint2*>(cg + int64_t(row + h) * nb), make_uint2(w[0], w[1]));
      }
    }
  }
#endif
}

}  // namespace spb
