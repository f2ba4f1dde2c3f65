// Our tensor-core tile kernel (batched-mma) for batches with long rows, both layouts, any dim.
//
// The batch is its block-diagonal matrix; a thread block owns a tile of 16 x RW consecutive rows of it
// (several small matrices, or a slice of a large one) and NT columns of C. A's columns come in groups
// of 32 (kept on the device as bitmaps, see MmaBitmap). Each warp owns a 16-row strip of the tile and
// every KW-th group of it (RW x KW = 4 warps: the groups of a long row are split over warps, so
// large matrices still fill the GPU), and works alone: it expands its group into a dense 16 x 32
// slab of A in its own shared memory (lane = column: a row's values are one coalesced load), stages
// the matching 32 x NT slab of B_i next to it, and multiplies them on the tensor cores (wmma); no
// block barrier until the end, where the KW partial sums of a strip are added while C is stored.
// A row's nonzeros thus cost one load each, spread over 32 lanes, where our CSR kernels walk them one
// after another; dense slabs cost the same whatever their density, so this pays on long, dense-ish
// rows and small nb (the planner's rule; B slabs are re-read for every strip, so large nb does not pay).
//   f32: 3xTF32 (a = hi + lo, each TF32; hi*hi + hi*lo + lo*hi), error ~2^-21 relative, within the
//        f32 tolerance (plain TF32, 2^-11, would not be); f64: DMMA (m8n8k4), exact products;
//   f16, bf16: HMMA (m16n16k16) with f32 accumulation, C rounded to 16 bits once at the end.
// C goes through shared memory so that its stores are coalesced in either layout and tiles that
// straddle matrices store each row where its own C_i lives.
#pragma once
#include <mma.h>
#include <algorithm>
#include <type_traits>
#include <utility>
#include <vector>
#include "../common/half_types.cuh"
#include "common.cuh"
#include "vec.cuh"

namespace spb {

constexpr int kMmaK = 32;  // columns of A (rows of B) a step: one bitmap group
constexpr int kMmaWarps = 4;
constexpr int kMmaThreads = 32 * kMmaWarps;

// A's 32-column group of one row: which columns are present, and where the group's first value sits
// in the packed values (values follow in column order).
struct alignas(8) MmaWord {
  unsigned mask;
  int off;
};

// Fragment shapes and the element type the tensor cores take, per value type.
template <typename T>
struct MmaTraits;
template <>
struct MmaTraits<float> {
  static constexpr int M = 16, N = 16, K = 8;
  using Elem = nvcuda::wmma::precision::tf32;
};
template <>
struct MmaTraits<double> {
  static constexpr int M = 8, N = 8, K = 4;
  using Elem = double;
};
template <typename H>
struct MmaTraits16 {
  static constexpr int M = 16, N = 16, K = 16;
  using Elem = H;
};
template <>
struct MmaTraits<__half> : MmaTraits16<__half> {};
template <>
struct MmaTraits<__nv_bfloat16> : MmaTraits16<__nv_bfloat16> {};

// Shared memory of one warp: its A slab (16 x 32, row-major) and its B slab (32 x NT row-major, or
// NT x 32 column-major, as B is stored), in T; afterwards its partial C strip (16 x NT in C's layout,
// in the accumulation type) over the same bytes. Pitches in elements; padding (16 bytes, 32 for f64)
// keeps wmma's 32-byte alignment at every fragment origin, its ldm rule (a multiple of 16 bytes) and
// spreads a fragment's rows over the banks.
template <typename T, Layout L, int NT>
struct MmaPitch {
  static constexpr int pad = sizeof(T) == 2 ? 8 : 4;
  static constexpr int A = kMmaK + pad;
  static constexpr int B = L == Layout::Row ? NT + pad : kMmaK + pad;
  static constexpr int C = L == Layout::Row ? NT + 4 : 16 + 4;
  static constexpr int a_elems = 16 * A;
  static constexpr int b_elems = L == Layout::Row ? kMmaK * B : NT * B;
  static constexpr int c_elems = L == Layout::Row ? 16 * C : NT * C;
  static constexpr size_t ab_bytes = size_t(a_elems + b_elems) * sizeof(T), c_bytes = size_t(c_elems) * sizeof(acc_t<T>);
  static constexpr size_t warp_bytes = ((ab_bytes > c_bytes ? ab_bytes : c_bytes) + 127) / 128 * 128;
};

template <typename T, Layout L, int NT>
inline size_t mma_smem_bytes() {
  return size_t(kMmaWarps) * MmaPitch<T, L, NT>::warp_bytes;
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
// One warp's 16 x NT block of C: RF x CF accumulator fragments.
template <typename T, Layout L, int NT>
struct MmaWarpTile {
  using Tr = MmaTraits<T>;
  using BL = std::conditional_t<L == Layout::Row, nvcuda::wmma::row_major, nvcuda::wmma::col_major>;
  static constexpr int RF = 16 / Tr::M, CF = NT / Tr::N;
  using FragA = nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, Tr::M, Tr::N, Tr::K, typename Tr::Elem, nvcuda::wmma::row_major>;
  using FragB = nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, Tr::M, Tr::N, Tr::K, typename Tr::Elem, BL>;
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, Tr::M, Tr::N, Tr::K, acc_t<T>> acc[RF][CF];

  __device__ void zero() {
#pragma unroll
    for (int i = 0; i < RF; ++i)
#pragma unroll
      for (int j = 0; j < CF; ++j) nvcuda::wmma::fill_fragment(acc[i][j], acc_t<T>(0));
  }
  // hi = x rounded to TF32, lo = the rest rounded to TF32 (x - hi is exact in f32).
  template <typename F>
  __device__ static void split(F& hi, F& lo) {
#pragma unroll
    for (int e = 0; e < hi.num_elements; ++e) {
      const float x = hi.x[e], h = nvcuda::wmma::__float_to_tf32(x);
      hi.x[e] = h;
      lo.x[e] = nvcuda::wmma::__float_to_tf32(x - h);
    }
  }
  // acc += A slab x B slab.
  __device__ void step(const T* As, const T* Bs) {
    using P = MmaPitch<T, L, NT>;
#pragma unroll
    for (int kk = 0; kk < kMmaK; kk += Tr::K) {
      FragA a[RF], alo[RF];
#pragma unroll
      for (int i = 0; i < RF; ++i) {
        nvcuda::wmma::load_matrix_sync(a[i], As + i * Tr::M * P::A + kk, P::A);
        if constexpr (std::is_same_v<T, float>) split(a[i], alo[i]);
      }
#pragma unroll
      for (int j = 0; j < CF; ++j) {
        FragB b, blo;
        nvcuda::wmma::load_matrix_sync(b, L == Layout::Row ? Bs + kk * P::B + j * Tr::N : Bs + j * Tr::N * P::B + kk, P::B);
        if constexpr (std::is_same_v<T, float>) split(b, blo);
#pragma unroll
        for (int i = 0; i < RF; ++i) {
          if constexpr (std::is_same_v<T, float>) {  // small terms first
            nvcuda::wmma::mma_sync(acc[i][j], alo[i], b, acc[i][j]);
            nvcuda::wmma::mma_sync(acc[i][j], a[i], blo, acc[i][j]);
          }
          nvcuda::wmma::mma_sync(acc[i][j], a[i], b, acc[i][j]);
        }
      }
    }
  }
  __device__ void store(acc_t<T>* Cs) {
    using P = MmaPitch<T, L, NT>;
#pragma unroll
    for (int i = 0; i < RF; ++i)
#pragma unroll
      for (int j = 0; j < CF; ++j) {
        const int r = i * Tr::M, c = j * Tr::N;
        if (L == Layout::Row) nvcuda::wmma::store_matrix_sync(Cs + r * P::C + c, acc[i][j], P::C, nvcuda::wmma::mem_row_major);
        else nvcuda::wmma::store_matrix_sync(Cs + c * P::C + r, acc[i][j], P::C, nvcuda::wmma::mem_col_major);
      }
  }
};
#endif

// Grid: tiles x column tiles (column tile fastest, so the blocks that share a tile's A run together
// and its next read comes from L2). Tiles have 16 RW rows; tile_mat[t] = the matrix holding the
// tile's first row; mbase[i] = index of matrix i's first word (its words: row-major, ceil(k_i / 32) a
// row). Warp w owns strip w / KW and the groups s with s % KW == w % KW of the tile's (matrix, group)
// sequence.
// 16-bit row-major with 16 columns a block: at most 72 registers (7 blocks an SM; 80-88 unbounded, 6), no
// spill: d256, 128 a row, nb 16 (f16 / bf16) 18.0-19.2 -> 14.2-15.3 us on the H100. Bounded so, f32 tied
// (+-5 %), f64 and the wider tiles spilled and lost up to 1.6x (docs/spmm-notes.md "batched-mma's registers").
template <typename T, Layout L, int NT>
__global__ void __launch_bounds__(kMmaThreads, sizeof(T) == 2 && L == Layout::Row && NT == 16 ? 7 : 0) mma_kernel(const int* __restrict__ row_off, const int* __restrict__ col_off,
                                                          const int* __restrict__ tile_mat, const long long* __restrict__ mbase,
                                                          const MmaWord* __restrict__ words, const T* __restrict__ vals, const T* __restrict__ B,
                                                          T* __restrict__ C, int batch, long long total_rows, int nb, int nct, int KW) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  using P = MmaPitch<T, L, NT>;
  extern __shared__ __align__(128) unsigned char mma_smem[];
  __shared__ int rowmat[16 * kMmaWarps];  // matrix of each tile row (column-major stores)
  const int RW = kMmaWarps / KW, TR = 16 * RW;
  const int t = blockIdx.x / nct, ct = blockIdx.x - t * nct;
  const long long R0 = (long long)t * TR;
  const int rows = int(min((long long)TR, total_rows - R0));
  const int j0 = ct * NT, w = min(NT, nb - j0);
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int strip = warp / KW, kw = warp - strip * KW;
  const long long S0 = R0 + 16 * strip;  // first row of this warp's strip
  using A_t = acc_t<T>;
  T* As = reinterpret_cast<T*>(mma_smem + warp * P::warp_bytes);
  T* Bs = As + P::a_elems;
  A_t* Cs = reinterpret_cast<A_t*>(As);  // after the last step
  const unsigned below = (1u << lane) - 1u;
  constexpr int V = L == Layout::Row ? int(16 / sizeof(T)) : 1;  // B's and C's row-major vectors, when nb allows
  const bool vec = L == Layout::Row && nb % V == 0;
  MmaWarpTile<T, L, NT> tile;
  tile.zero();
  int s = 0;  // index of the next group in the tile's sequence
  for (int X = __ldg(tile_mat + t); X < batch; ++X) {
    const long long rlo = __ldg(row_off + X), rhi = __ldg(row_off + X + 1);
    if (rlo >= R0 + rows) break;
    if (L == Layout::Col)
      for (int r = threadIdx.x; r < rows; r += blockDim.x)
        if (R0 + r >= rlo && R0 + r < rhi) rowmat[r] = X;
    if (rhi == rlo) continue;
    const int cX = __ldg(col_off + X), kX = __ldg(col_off + X + 1) - cX;
    const int gX = (kX + kMmaK - 1) / kMmaK;
    const int first = s;
    s += gX;
    if (S0 >= rhi || S0 + 16 <= rlo) continue;  // no row of X in this strip
    const T* BX = B + (long long)cX * nb;
    const long long wb = __ldg(mbase + X);
    // This warp's groups of X: g with (first + g) % KW == kw. Lane i < 16 holds row i's word of the
    // group in hand; a step issues that group's values, its B slab and the next group's words together
    // (registers first, shared memory after), so it waits on one round trip, not three.
    const int g0 = ((kw - first) % KW + KW) % KW;
    const long long wrow = S0 + lane - rlo;  // this lane's row of X (valid when has_row)
    const bool has_row = lane < 16 && S0 + lane >= rlo && S0 + lane < rhi;
    MmaWord cur = has_row && g0 < gX ? words[wb + wrow * gX + g0] : MmaWord{0u, 0};
    for (int g = g0; g < gX; g += KW) {
      T av[16];
#pragma unroll
      for (int i = 0; i < 16; ++i) {
        const unsigned mask = __shfl_sync(0xffffffffu, cur.mask, i);
        const int off = __shfl_sync(0xffffffffu, cur.off, i);
        av[i] = (mask >> lane) & 1u ? vals[off + __popc(mask & below)] : T(0);
      }
      const int c0 = g * kMmaK, kc = min(kMmaK, kX - c0);  // B rows of this group
      VecT<T, V> bv[NT / V];  // row-major: lane + 32 q -> (row, V columns); column-major (V = 1): row lane, column q
#pragma unroll
      for (int q = 0; q < NT / V; ++q) {
        if (L == Layout::Row) {
          const int e = lane + 32 * q, r = e / (NT / V), j = (e - r * (NT / V)) * V;
          const T* src = BX + (long long)(c0 + r) * nb + j0 + j;
          if (vec && r < kc && j < w) bv[q] = *reinterpret_cast<const VecT<T, V>*>(src);
          else
#pragma unroll
            for (int x = 0; x < V; ++x) bv[q].x[x] = r < kc && j + x < w ? src[x] : T(0);
        } else {  // one column's 32 rows are one coalesced load
          bv[q].x[0] = lane < kc && q < w ? BX[(long long)(j0 + q) * kX + c0 + lane] : T(0);
        }
      }
      cur = has_row && g + KW < gX ? words[wb + wrow * gX + g + KW] : MmaWord{0u, 0};
      __syncwarp();  // the previous step's fragments are loaded before the slabs change
#pragma unroll
      for (int i = 0; i < 16; ++i) As[i * P::A + lane] = av[i];
#pragma unroll
      for (int q = 0; q < NT / V; ++q) {
        if (L == Layout::Row) {
          const int e = lane + 32 * q, r = e / (NT / V), j = (e - r * (NT / V)) * V;
          *reinterpret_cast<VecT<T, V>*>(Bs + r * P::B + j) = bv[q];
        } else {
          Bs[q * P::B + lane] = bv[q].x[0];
        }
      }
      __syncwarp();
      tile.step(As, Bs);
    }
  }
  __syncwarp();  // Cs aliases this warp's slabs
  tile.store(Cs);
  __syncthreads();
  // C = the sum of each strip's KW partial strips, rounded to T.
  const A_t* base = reinterpret_cast<const A_t*>(mma_smem);
  constexpr size_t stride = P::warp_bytes / sizeof(A_t);  // one warp's region, in A_t
  if (L == Layout::Row) {
    T* Ct = C + R0 * nb + j0;
    for (int e = threadIdx.x; e < rows * (NT / V); e += blockDim.x) {
      const int r = e / (NT / V), j = (e - r * (NT / V)) * V;
      if (j >= w) continue;
      const A_t* src = base + (r / 16) * KW * stride + (r % 16) * P::C + j;
      VecT<T, V> o;
#pragma unroll
      for (int x = 0; x < V; ++x) {
        A_t a = src[x];
        for (int q = 1; q < KW; ++q) a += src[q * stride + x];
        o.x[x] = narrow<T>(a);
      }
      if (vec) *reinterpret_cast<VecT<T, V>*>(Ct + (long long)r * nb + j) = o;
      else
#pragma unroll
        for (int x = 0; x < V; ++x)
          if (j + x < w) Ct[(long long)r * nb + j + x] = o.x[x];
    }
  } else {
    for (int e = threadIdx.x; e < TR * NT; e += blockDim.x) {
      const int j = e / TR, r = e - j * TR;
      if (r >= rows || j >= w) continue;
      const A_t* src = base + (r / 16) * KW * stride + j * P::C + (r % 16);
      A_t a = src[0];
      for (int q = 1; q < KW; ++q) a += src[q * stride];
      const int X = rowmat[r];
      const long long rlo = __ldg(row_off + X), m = __ldg(row_off + X + 1) - rlo;
      C[rlo * nb + (long long)(j0 + j) * m + (R0 + r - rlo)] = narrow<T>(a);
    }
  }
#endif
}

// A of a batch as MmaWords: per row of matrix i, ceil(k_i / 32) words (mbase[i] = index of its first),
// values packed in column order (duplicate columns summed); tile_mat[t] = the matrix holding row t * tile_rows.
// Built on the host in setup (untimed, like the ELL arrays and the block-diagonal peer's columns).
template <typename T>
struct MmaBitmap {
  Pinned<MmaWord> words;
  Pinned<T> vals;
  Pinned<long long> mbase;
  Pinned<int> tile_mat;
  long long tiles = 0;
  void build(const HostBatch<T>& h, int tile_rows) {
    long long nw = 0;
    mbase = Pinned<long long>(size_t(h.batch) + 1);
    for (int i = 0; i < h.batch; ++i) {
      mbase[i] = nw;
      nw += (long long)h.m[i] * ((h.k[i] + kMmaK - 1) / kMmaK);
    }
    mbase[h.batch] = nw;
    words = Pinned<MmaWord>(size_t(nw));
    vals = Pinned<T>(size_t(h.total_nnz));
    std::vector<std::pair<int, T>> row;
    int nv = 0;
    for (int i = 0; i < h.batch; ++i) {
      const int g = (h.k[i] + kMmaK - 1) / kMmaK;
      for (int r = 0; r < h.m[i]; ++r) {
        const long long R = (long long)h.row_off[i] + r;
        row.clear();
        for (int q = h.rp[R]; q < h.rp[R + 1]; ++q) row.emplace_back(h.ci[q], h.val[q]);
        std::stable_sort(row.begin(), row.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        MmaWord* wr = &words[size_t(mbase[i] + (long long)r * g)];
        size_t p = 0;
        for (int gg = 0; gg < g; ++gg) {
          wr[gg] = MmaWord{0u, nv};
          while (p < row.size() && row[p].first < (gg + 1) * kMmaK) {
            const unsigned bit = 1u << (row[p].first - gg * kMmaK);
            if (wr[gg].mask & bit) vals[size_t(nv) - 1] = narrow<T>(widen(vals[size_t(nv) - 1]) + widen(row[p].second));  // a duplicate column
            else { wr[gg].mask |= bit; vals[size_t(nv++)] = row[p].second; }
            ++p;
          }
        }
      }
    }
    tiles = (h.total_rows + tile_rows - 1) / tile_rows;
    tile_mat = Pinned<int>(size_t(tiles));
    int X = 0;
    for (long long t = 0; t < tiles; ++t) {
      while (h.row_off[X + 1] <= t * tile_rows) ++X;
      tile_mat[size_t(t)] = X;
    }
  }
};

}  // namespace spb
