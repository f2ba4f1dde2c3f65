// batched-tile's streamed column-major path (tile_col_kernel): 16-bit B_i and C_i stored column by column,
// every m_i and k_i a multiple of 8 and at most kTileColMaxDim. Column-major turns the product around:
// C_i^T (nb x m) = B_i^T (nb x k) A_i^T, and a row of B_i^T (a column of B_i, k contiguous values) is what
// the tensor cores' m16n8k16 A operand wants, up to the order of k inside a step, which the sum does not
// care about. So a lane loads 8 consecutive k values of a column of B straight from global memory (one
// 16-byte load) and hands them to two MMA steps as they are: step s takes k = 8t + 4s + {0, 1} for the
// fragment's columns 2t, 2t + 1 and 8t + 4s + {2, 3} for 2t + 8, 2t + 9 (t = lane % 4); the B operand
// (A_i^T) takes the same k order, which is A_i's row g from column 8t on (one 16-byte shared-memory load
// of the dense A_i). C's accumulators hold a column of C_i's rows 2t, 2t + 1 of each n8 tile; A_i's rows are taken in
// an order (n8 tile u's column n is row 8 (n / 2) + 2 u + n % 2 of a 32-row group) that gives a lane, over 4 tiles, 8
// consecutive rows: one 16-byte store straight from the accumulators (a quad transpose before: 0.73-1.04x its time,
// docs/spmm-notes.md). No shared memory
// for B or C, no block barrier after A's fill: each warp streams its 16-column groups alone, the next
// group's B loads in flight while it multiplies the current one (tile_kernel's column-major 16-bit path
// stages B and C in shared memory behind block barriers: f16 d64, 3 a row, nb 256 at 2.6 TB/s on the H200
// where cuBLAS reaches 3.3 reading a dense A; docs/spmm-notes.md).
#pragma once
#include <cstdint>
#include "tile.cuh"

namespace spb {

constexpr int kTileColWarps = 4, kTileColThreads = 32 * kTileColWarps;
constexpr int kTileColMaxDim = 128;  // rows and columns of an A_i (dense in shared memory; k in KC chunks of 32)

// A_i's pitch in bytes: its 32-value chunks padded so that a row's start moves 64 bytes mod 128 (a quarter warp's
// 16-byte loads, rows g, g + 1 at 16 t: 8 distinct 16-byte bank groups).
__host__ __device__ constexpr int tile_col_pitch(int kc) { return (64 * kc) % 128 == 64 ? 64 * kc : 64 * kc + 64; }
// NS > 0: each warp's ring of NS stages of a 16-column group of B (16 columns of 64 KC bytes, cp.async); a column's 16-byte
// units XOR 4 on odd columns where its bytes are a multiple of 128, so that the fragment loads (columns g, g + 1 of a
// quarter warp at 16 t) meet 8 distinct 16-byte bank groups.
__host__ __device__ constexpr size_t tile_col_a_bytes(int kc, int max_m) { return (size_t(tile_col_pitch(kc)) * size_t(max_m) + 127) / 128 * 128; }
__host__ __device__ constexpr size_t tile_col_smem(int kc, int max_m, int ns) { return tile_col_a_bytes(kc, max_m) + size_t(kTileColWarps) * ns * 16 * 64 * kc; }

// A block: matrix blockIdx.x / S, its 16-column groups part blockIdx.x % S of S; warp w takes every 4th group.
// KC: 32-value chunks of k (k <= 32 KC). NS: 0, the next group's B in registers while the warp multiplies this one; else
// NS - 1 groups ahead in the warp's ring (tile_col_smem).
// apos: each nonzero's place in the dense A_i (row * pitch / 2 + column; CSR order, made on the host), val its value.
template <typename T, int KC, int NS>
__global__ void __launch_bounds__(kTileColThreads) tile_col_kernel(const int* __restrict__ row_off, const int* __restrict__ col_off,
                                                                   const int* __restrict__ rp, const uint16_t* __restrict__ apos,
                                                                   const T* __restrict__ val, const T* __restrict__ B, T* __restrict__ C,
                                                                   int nb, int S, int ring_off) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  static_assert(sizeof(T) == 2 && KC >= 1 && KC <= 4, "16-bit values, k <= 128");
  extern __shared__ __align__(16) unsigned char tc_smem[];
  constexpr int P = tile_col_pitch(KC);  // bytes
  const int mat = blockIdx.x / S, part = blockIdx.x - mat * S;
  const int r0 = __ldg(row_off + mat), m = __ldg(row_off + mat + 1) - r0;
  const int c0 = __ldg(col_off + mat), k = __ldg(col_off + mat + 1) - c0;
  const int ng = (nb + 15) / 16, g0 = int(int64_t(ng) * part / S), g1 = int(int64_t(ng) * (part + 1) / S);
  if (m == 0 || g0 >= g1) return;  // uniform over the block: before the barriers (a zero-row C_i has nothing to store)
  const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31, g = lane >> 2, t = lane & 3;
  const T* Bi = B + int64_t(c0) * nb;
  T* Ci = C + int64_t(r0) * nb;
  // A group's B fragments: columns j0 + g (lo) and j0 + g + 8 (hi), k = 32 c + 8 t .. + 7 of chunk c (zeros past k and nb).
  auto load = [&](int grp, uint4 (&lo)[KC], uint4 (&hi)[KC]) {
    const int j = grp * 16 + g;
    const T* p = Bi + int64_t(j) * k + 8 * t;
#pragma unroll
    for (int c = 0; c < KC; ++c) {
      const bool kin = 32 * c + 8 * t < k;
      lo[c] = kin && j < nb ? __ldg(reinterpret_cast<const uint4*>(p + 32 * c)) : make_uint4(0, 0, 0, 0);
      hi[c] = kin && j + 8 < nb ? __ldg(reinterpret_cast<const uint4*>(p + int64_t(8) * k + 32 * c)) : make_uint4(0, 0, 0, 0);
    }
  };
  constexpr int CB = 64 * KC, SW = CB % 128 == 0 ? 4 : 0;  // a ring column's bytes; its units' XOR on odd columns
  const int nt8 = m / 8;  // n8 tiles (m % 8 == 0)
  int grp = g0 + warp;
  uint4 lo[KC], hi[KC];
  unsigned char* const wr = tc_smem + ring_off + size_t(warp) * NS * 16 * CB;  // this warp's ring
  // Group grp's B into stage st: 16 columns x 4 KC 16-byte units, consecutive lanes on consecutive units of a column.
  auto issue = [&](int gi, int st) {
    if (gi < g1) {
      const int j0 = gi * 16;
#pragma unroll
      for (int i = 0; i < 2 * KC; ++i) {
        const int p = lane + 32 * i, jj = p / (4 * KC), o = p - jj * (4 * KC);
        unsigned char* d = wr + (st * 16 + jj) * CB + 16 * (o ^ (jj & 1 ? SW : 0));
        if (j0 + jj < nb && 8 * o < k) cp_async16(d, Bi + int64_t(j0 + jj) * k + 8 * o);
        else *reinterpret_cast<uint4*>(d) = make_uint4(0, 0, 0, 0);
      }
    }
    cp_async_commit();  // (an empty group past the warp's last: the waits count groups)
  };
  if constexpr (NS == 0) {
    if (grp < g1) load(grp, lo, hi);  // in flight during A's fill
  } else {
#pragma unroll
    for (int s = 0; s < NS - 1; ++s) issue(grp + s * kTileColWarps, s);
  }
  // A_i dense: zero rows 0 .. m - 1 (every chunk: columns past k meet B's zeros), then its nonzeros, a thread a nonzero
  // (a warp a row, each row's bounds and then its nonzeros a dependent round trip, took 1.5-2x the time of the whole
  // kernel on f16 d64, 3 a row, nb 256).
  for (int e = tid; e < m * (P / 16); e += kTileColThreads) reinterpret_cast<uint4*>(tc_smem)[e] = make_uint4(0, 0, 0, 0);
  const int q0 = __ldg(rp + r0), q1 = __ldg(rp + r0 + m);
  __syncthreads();
  T* As = reinterpret_cast<T*>(tc_smem);
  for (int q = q0 + tid; q < q1; q += kTileColThreads) As[__ldg(apos + q)] = __ldg(val + q);
  __syncthreads();
  for (int st = 0; grp < g1; grp += kTileColWarps, st = st + 1 == NS ? 0 : st + 1) {
    uint4 nlo[KC], nhi[KC];
    const bool more = grp + kTileColWarps < g1;
    if constexpr (NS == 0) {
      if (more) load(grp + kTileColWarps, nlo, nhi);
    } else {
      cp_async_wait<NS - 2>();
      __syncwarp();  // every lane's copies of this stage done; every lane done with the stage refilled below
      const unsigned char* sb = wr + st * 16 * CB + 16 * t;
#pragma unroll
      for (int c = 0; c < KC; ++c) {
        lo[c] = *reinterpret_cast<const uint4*>(sb + g * CB + 16 * ((4 * c) ^ (g & 1 ? SW : 0)));
        hi[c] = *reinterpret_cast<const uint4*>(sb + (g + 8) * CB + 16 * ((4 * c) ^ (g & 1 ? SW : 0)));
      }
      issue(grp + (NS - 1) * kTileColWarps, st == 0 ? NS - 1 : st - 1);
    }
    const int j0 = grp * 16;
    // 32 rows of C_i at a time, n8 tile u's column n being row 8 (n / 2) + 2 u + n % 2 of them: a lane's accumulators
    // over the 4 tiles are then rows 8 t .. 8 t + 7 of its columns, one 16-byte store with no transpose. Rows past m:
    // A_i's rows there are read (shared memory for whole 32-row groups), C's not stored.
    const unsigned char* a_perm = tc_smem + (8 * (g >> 1) + (g & 1)) * P + 16 * t;
    for (int n0 = 0; n0 < nt8; n0 += 4) {
      float acc[4][4];
#pragma unroll
      for (int u = 0; u < 4; ++u) {
        acc[u][0] = acc[u][1] = acc[u][2] = acc[u][3] = 0.f;
#pragma unroll
        for (int c = 0; c < KC; ++c) {
          const uint4 a = *reinterpret_cast<const uint4*>(a_perm + (n0 * 8 + 2 * u) * P + 64 * c);
          typename TileMma16<T>::A f;
          typename TileMma16<T>::B b;
          f.r[0] = lo[c].x, f.r[1] = hi[c].x, f.r[2] = lo[c].y, f.r[3] = hi[c].y, b.r[0] = a.x, b.r[1] = a.y;
          TileMma16<T>::mma(acc[u], f, b);
          f.r[0] = lo[c].z, f.r[1] = hi[c].z, f.r[2] = lo[c].w, f.r[3] = hi[c].w, b.r[0] = a.z, b.r[1] = a.w;
          TileMma16<T>::mma(acc[u], f, b);
        }
      }
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        uint32_t w[4];
#pragma unroll
        for (int u = 0; u < 4; ++u) w[u] = pack16<T>(acc[u][2 * h], acc[u][2 * h + 1]);
        const int j = j0 + g + 8 * h;
        if (j < nb && n0 + t < nt8) store_c(reinterpret_cast<uint4*>(Ci + int64_t(j) * m + 8 * (n0 + t)), make_uint4(w[0], w[1], w[2], w[3]));
      }
    }
    if (NS == 0 && more) {
#pragma unroll
      for (int c = 0; c < KC; ++c) lo[c] = nlo[c], hi[c] = nhi[c];
    }
  }
#endif
}

}  // namespace spb
