// Our dense-tile kernel (batched-tile): a batched GEMM on the tensor cores, for dense-ish batches and
// for small A_i with many columns of B (where the bytes of B and C, not the products, bound the time).
//
// A thread block owns a job, BM rows (16, 32 or 64) of one A_i, and a run of BN-column tiles of C_i.
// It scatters its rows of A_i into a dense BM x k tile in shared memory once (nonzero positions made on
// the host; A_i wider than kTilePanel columns a panel at a time), then streams B_i through shared
// memory in chunks of tile_k rows with cp.async, tile_stages - 1 chunks ahead of the one the tensor
// cores work on, so B_i is read once for all BM rows and C once, where the sparse kernels re-read B_i
// from L1 for every nonzero. Four warps (eight in f64 64-row jobs of A_i taller than 64: tile_warps_for): each
// owns 16 rows and 32 columns of the block's tile (BN = 32 x warps / (BM / 16)), as 4 m16n8 accumulator tiles of mma.sync with
// fragments loaded straight from shared memory (wmma's loads and conversions cost ~4x the
// instructions, measured: docs/spmm-notes.md "batched-tile").
//   f32: 3xTF32 (a = hi + lo; hi*hi + hi*lo + lo*hi), error ~2^-21 relative, within the f32 tolerance;
//   f64: DMMA (m16n8k8 on sm_90, m8n8k4 before), exact products; f16, bf16: m16n8k16 with f32 accumulation.
// C goes straight from the accumulators (f32, f64, 16-bit row-major as whole 16-byte vectors) or
// through shared memory (16-bit column-major; see tile_direct_c).
// Dense products cost the same whatever A's density; the planner sends it the batches where that pays.
#pragma once
#include <cstdint>
#include <type_traits>
#include "../common/half_types.cuh"
#include "common.cuh"
#include "vec.cuh"
#include "async_copy.cuh"
#include "quad_transpose.cuh"

namespace spb {

// SPB_TILE_STAGES: compile-time override for development sweeps only.
constexpr int kTileWarps = 4, kTileThreads = 32 * kTileWarps;
// Columns of A_i in shared memory at a time: wider A_i are filled a panel at a time. (A panel as wide
// as k, or as two blocks an SM allow, was 15-45 % faster where the grid is small and up to 2.2x slower
// where it fills the SMs; a runtime width cost the f32 kernels 8-32 registers and 5-27 %: docs/spmm-notes.md.)
constexpr int kTilePanel = 128;
// A_i held whole (tile_kernel's PW in the one-panel 16-bit two-strip kernels; the host's tile_wide): two panels' width.
constexpr int kTileWidePanel = 2 * kTilePanel;
constexpr unsigned kTilePad = 0xffffu;  // MP: a padding place (a tile has at most 64 x (kTilePanel + 8) places)
// Rows of B_i a pipeline stage (the kernels' KC): 32; 64 for 16-bit batches whose widest A_i is one panel
// of whole 64-row chunks (k = 64 or 128), and in the two-strip kernels where row-major or k > 160 (the host's
// tile_kc). A chunk costs the warps ~150 instructions of waits, barrier, copies and addresses, against 14 that
// load fragments and multiply for a 16-bit 32 x 32 chunk (ncu source counters, docs/spmm-notes.md); 64-row chunks measured 3-7 % faster there (f16 d64 nB 256
// row-major 32.5 -> 31.5 us, column-major 3 a row 29.2 -> 27.3), but slower where k leaves a chunk half
// empty (k = 32: 4.2 -> 5.4 us; k = 96; column-major k = 48) and on f32 / f64 (3-33 % slower in 4
// of 5 cells: f32 d96 nB 128 72.8 -> 96.7 us).
template <typename T>
__host__ __device__ constexpr int tile_k(int kmax) { return sizeof(T) == 2 && kmax <= kTilePanel && kmax % 64 == 0 ? 64 : 32; }
// Pipeline stages: f32 and f64 2 (one chunk ahead: the smaller footprint leaves more blocks an SM, 8-25 %
// faster than 3; 4 and 5 stages were slower still); 16-bit 3 (two ahead), 2 for column-major 64-row
// chunks (27.4 against 30.0 us at 3).
template <typename T>
__host__ __device__ constexpr int tile_stages(bool row, int kc) {
#ifdef SPB_TILE_STAGES
  return SPB_TILE_STAGES;
#else
  return sizeof(T) == 2 && (row || kc == 32) ? 3 : 2;
#endif
}
// Columns of C a warp: 4 tiles of 8 (64 measured 8-56 % slower on f32 and 16-bit with C from the
// accumulators, and no faster on 16-bit through shared memory).
constexpr int kTileWN = 32;
// f64 and f32 store C straight from the accumulators (a quad of lanes writes whole 32-byte sectors;
// f64 18 % faster than through shared memory, f32 with 2 stages 5-15 %, its smaller footprint leaving
// more blocks an SM). 16-bit row-major too, after a transpose within each quad (quad_transpose) that
// gives a lane 8 consecutive columns of a row, one 16-byte store (the accumulators' pairs alone are
// half sectors). 16-bit column-major goes through shared memory.
template <typename T>
__host__ __device__ constexpr bool tile_direct_c(bool row) { return sizeof(T) >= 4 || row; }

// Shared-memory geometry of one launch (BM rows a job, A pitch from the largest k up to a panel), in elements.
// The pitches make every fragment load of a warp hit distinct banks (f32: A and column-major B pitches
// = 4 mod 32 words, row-major B = 8 mod 32; f64 and 16-bit likewise per access width) and keep the
// 16-byte alignment of the cp.async destinations.
template <typename T>
struct TileGeom {
  static constexpr int apad = sizeof(T) == 2 ? 8 : 4;
  static constexpr int brow_pad = sizeof(T) == 8 ? 4 : 8, bcol_pad = sizeof(T) == 2 ? 8 : 4;
  int BN, apitch, bpitch, cpitch;
  size_t b_off, c_off, stage, bytes;
  // kc: rows a chunk, tile_k(kmax) (the kernels pass their KC, so that their geometry folds to constants);
  // warps: a block's (tile_kernel's W); ms: 16-row strips a warp (tile_kernel's MS); pw: A's columns a panel (tile_kernel's PW).
  __host__ __device__ TileGeom(int bm, int kmax, bool row, int kc, int warps = kTileWarps, int ms = 1, int pw = kTilePanel) {
    BN = kTileWN * warps / (bm / (16 * ms));
    const int kw = kmax < 1 ? 1 : kmax > pw ? pw : kmax;
    const int kp = (kw + kc - 1) / kc * kc;
    apitch = kp + apad;
    bpitch = row ? BN + brow_pad : kc + bcol_pad;
    cpitch = row ? BN + 8 : bm + 4;
    stage = size_t(row ? kc : BN) * bpitch;
    auto up = [](size_t b) { return (b + 127) / 128 * 128; };
    b_off = up(size_t(bm) * apitch * sizeof(T));
    c_off = b_off + up(tile_stages<T>(row, kc) * stage * sizeof(T));
    bytes = c_off + (tile_direct_c<T>(row) ? 0 : size_t(row ? bm : BN) * cpitch * sizeof(acc_t<T>));
  }
};

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
// ldmatrix: four 8 x 8 matrices of 16-bit values (or 8 x 4 of 32-bit ones), a lane giving the address of
// one matrix row (lanes 8i .. 8i + 7: matrix i) and receiving, of each matrix, row lane / 4, values
// 2 (lane % 4) and + 1; .trans gives the transposed matrices. One instruction for what was 4-16 loads.
template <bool TRANS>
__device__ __forceinline__ void ldsm_x4(unsigned a, uint32_t (&r)[4]) {  // a: shared-memory address
  if (TRANS)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n" : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n" : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
}
__device__ __forceinline__ unsigned smem_addr(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }
// One value type's tensor-core step on a 16 x 8 tile of C (c[0..1]: row g, columns 2t, 2t+1; c[2..3]:
// row g + 8), g = lane / 4, t = lane % 4, K of A's columns at a time, fragments read from shared memory
// (A row-major with pitch ap; B row-major (k rows) or column-major with pitch bp). kPair (16-bit):
// load_a takes the lane and load_b2 the fragments of two n8 tiles at once (columns n0 .. n0 + 15 of
// the warp's slice Bw, rows kk on), both through ldmatrix (one instruction for 4-16 loads: 6-11 %
// faster on row-major 16-bit); else load_a / load_b take g and t and one n8 tile.
// KF: f64, the DMMA k step, 4 (m8n8k4 pairs) or 8 (m16n8k8), 0: SPB_F64_MMA_K (see TileMma<double>);
// f32, 1: the small terms in an accumulator of their own (kSmallAcc, see TileMma<float>).
template <typename T, int KF = 0>
struct TileMma;

// f32: m16n8k8 TF32, 3 products. hi = x with the 13 low mantissa bits cleared (what the tensor core
// reads of x), lo = x - hi (exact); the tensor core truncates lo in turn (error ~2^-21 of |x|).
template <int KF>
struct TileMma<float, KF> {
  static constexpr int K = 8;
  struct A { uint32_t hi[4], lo[4]; };
  struct B { uint32_t hi[2], lo[2]; };
  __device__ static void split(float x, uint32_t& h, uint32_t& l) {
    const uint32_t u = __float_as_uint(x) & 0xffffe000u;
    h = u;
    l = __float_as_uint(x - __uint_as_float(u));
  }
  static constexpr bool kPair = false;  // ldmatrix measured 5-15 % slower on column-major and small f32 cells
  __device__ static void load_a(const float* As, int ap, int g, int t, A& a) {
    split(As[g * ap + t], a.hi[0], a.lo[0]);
    split(As[(g + 8) * ap + t], a.hi[1], a.lo[1]);
    split(As[g * ap + t + 4], a.hi[2], a.lo[2]);
    split(As[(g + 8) * ap + t + 4], a.hi[3], a.lo[3]);
  }
  template <bool ROW>
  __device__ static void load_b(const float* Bs, int bp, int g, int t, B& b) {
    split(ROW ? Bs[t * bp + g] : Bs[g * bp + t], b.hi[0], b.lo[0]);
    split(ROW ? Bs[(t + 4) * bp + g] : Bs[g * bp + t + 4], b.hi[1], b.lo[1]);
  }
  __device__ static void one(float (&c)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  }
  __device__ static void mma(float (&c)[4], const A& a, const B& b) {
    one(c, a.lo, b.hi);  // small terms first
    one(c, a.hi, b.lo);
    one(c, a.hi, b.hi);
  }
  // KF = 1 (batched-slab where k is long): the small terms into an accumulator s of their own, added to
  // c when the tile is done, so that a k step is two chains of products (depth 2 and 1) instead of one
  // of depth 3. It costs 16 registers: where k is short the chains are short anyway and the registers
  // cost blocks (docs/spmm-notes.md).
  static constexpr bool kSmallAcc = KF == 1;
  __device__ static void mma(float (&c)[4], float (&s)[4], const A& a, const B& b) {
    one(s, a.lo, b.hi);
    one(c, a.hi, b.hi);
    one(s, a.hi, b.lo);
  }
};

// f64: DMMA, one m16n8k8 a 16 x 8 tile on sm_90 (a lane holds A at rows g, g + 8 and columns t, t + 4,
// B at rows t, t + 4 of column g, C as the f32 m16n8 tiles); two m8n8k4 a k4 step before sm_90. On the
// H100 m16n8k8 took 0.75-0.87x the time of m8n8k4 pairs in the wide f64 cells (d112-d128, nb 192-256;
// slab 0.77x) and m16n8k16 about 3 % more than m16n8k8 there, with 113-128 registers in slab against 80
// (small-k slab cells 1.2-1.3x slower): docs/spmm-notes.md. batched-slab keeps m8n8k4 pairs (KF = 4)
// where k <= 32. SPB_F64_MMA_K (4, 8 or 16) forces the default shape in development A/Bs only.
#ifndef SPB_F64_MMA_K
#define SPB_F64_MMA_K 8
#endif
template <int KF>
struct TileMma<double, KF> {
  static constexpr int K = KF ? KF : SPB_F64_MMA_K;
  static_assert(K == 4 || K == 8 || K == 16, "f64 MMA k: 4, 8 or 16");
  static constexpr int NA = K == 4 ? 2 : K / 2, NB = K == 4 ? 1 : K / 4;  // values a lane of A, of B
  struct A { double x[NA]; };
  struct B { double x[NB]; };
  static constexpr bool kPair = false, kSmallAcc = false;
  __device__ static void load_a(const double* As, int ap, int g, int t, A& a) {
#pragma unroll
    for (int v = 0; v < NA; ++v) a.x[v] = As[(g + 8 * (v & 1)) * ap + t + 4 * (v >> 1)];
  }
  template <bool ROW>
  __device__ static void load_b(const double* Bs, int bp, int g, int t, B& b) {
#pragma unroll
    for (int v = 0; v < NB; ++v) b.x[v] = ROW ? Bs[(t + 4 * v) * bp + g] : Bs[g * bp + t + 4 * v];
  }
  __device__ static void mma(double (&c)[4], const A& a, const B& b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    constexpr bool m16 = K > 4;
#else
    constexpr bool m16 = false;  // K = 4, or sm_80 .. sm_89 (no m16n8 f64 shapes): m8n8k4 pairs below
#endif
    if constexpr (m16 && K == 8) {
      asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                   : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
                   : "d"(a.x[0]), "d"(a.x[1]), "d"(a.x[2]), "d"(a.x[3]), "d"(b.x[0]), "d"(b.x[1]));
    } else if constexpr (m16) {
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, {%0,%1,%2,%3};\n"
                   : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
                   : "d"(a.x[0]), "d"(a.x[1]), "d"(a.x[2]), "d"(a.x[3]), "d"(a.x[4]), "d"(a.x[5]), "d"(a.x[6]), "d"(a.x[7]),
                     "d"(b.x[0]), "d"(b.x[1]), "d"(b.x[2]), "d"(b.x[3]));
    } else {
      // m8n8k4 pairs: k columns t + 4i of the fragments.
#pragma unroll
      for (int i = 0; i < NB; ++i) {
        asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};\n" : "+d"(c[0]), "+d"(c[1]) : "d"(a.x[2 * i]), "d"(b.x[i]));
        asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};\n" : "+d"(c[2]), "+d"(c[3]) : "d"(a.x[2 * i + 1]), "d"(b.x[i]));
      }
    }
  }
};

// f16 / bf16: m16n8k16, f32 accumulation; a register holds two values, the smaller k in the low half.
template <typename H>
struct TileMma16 {
  static constexpr int K = 16;
  struct A { uint32_t r[4]; };
  struct B { uint32_t r[2]; };
  static constexpr bool kPair = true, kSmallAcc = false;
  // Fragments by shared-memory address: a thread's lane part of each ldmatrix row address is fixed
  // (a_lane, b_lane, in bytes, made once), a step adds its column / row offset (b_at), so that the
  // chunk loop does not recompute lane arithmetic (it did: ~100 instructions a chunk of which 14 load
  // and multiply, docs/spmm-notes.md).
  // A: (g, 2t), (g + 8, 2t), (g, 2t + 8), (g + 8, 2t + 8): 8 x 8 blocks.
  __device__ static unsigned a_lane(int ap, int lane) { return 2u * (((lane & 7) + ((lane >> 3) & 1) * 8) * ap + (lane >> 4) * 8); }
  // B row-major: k rows kk .. kk + 7 and kk + 8 .. of n8 tile n0, then of n0 + 8, transposed;
  // column-major: n rows of the tile, k columns kk .. kk + 7 and kk + 8 ...
  template <bool ROW>
  __device__ static unsigned b_lane(int bp, int lane) {
    return ROW ? 2u * (((lane & 7) + ((lane >> 3) & 1) * 8) * bp + (lane >> 4) * 8) : 2u * (((lane & 7) + (lane >> 4) * 8) * bp + ((lane >> 3) & 1) * 8);
  }
  template <bool ROW>
  __device__ static unsigned b_at(int bp, int n0, int kk) { return 2u * (ROW ? kk * bp + n0 : n0 * bp + kk); }
  __device__ static void load_a(unsigned at, A& a) { ldsm_x4<false>(at, a.r); }
  template <bool ROW>
  __device__ static void load_b2(unsigned at, B& b0, B& b1) {
    uint32_t r[4];
    ldsm_x4<ROW>(at, r);
    b0.r[0] = r[0], b0.r[1] = r[1], b1.r[0] = r[2], b1.r[1] = r[3];
  }
  __device__ static void mma(float (&c)[4], const A& a, const B& b) {
    if constexpr (std::is_same_v<H, __half>)
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                   : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                   : "r"(a.r[0]), "r"(a.r[1]), "r"(a.r[2]), "r"(a.r[3]), "r"(b.r[0]), "r"(b.r[1]));
    else
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                   : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                   : "r"(a.r[0]), "r"(a.r[1]), "r"(a.r[2]), "r"(a.r[3]), "r"(b.r[0]), "r"(b.r[1]));
  }
};
template <int KF>
struct TileMma<__half, KF> : TileMma16<__half> {};
template <int KF>
struct TileMma<__nv_bfloat16, KF> : TileMma16<__nv_bfloat16> {};
#endif

// Eight 16-bit values (w: two a word, the lower address in the low half), the first n (>= 1; all 8 from 8 on) at dst,
// which is 2-byte aligned: 4-byte stores of whole pairs (one value first where dst is at an odd element),
// as 2-byte stores wrote half words, twice the store requests (docs/spmm-notes.md, "misaligned B and C").
template <typename T>
__device__ __forceinline__ void store_words16(T* dst, const uint32_t (&w)[4], int n) {
  auto half = [](uint32_t v) { const uint16_t b = uint16_t(v); return *reinterpret_cast<const T*>(&b); };
  if (!(reinterpret_cast<uintptr_t>(dst) & 2u)) {
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      if (2 * i + 1 < n) *reinterpret_cast<uint32_t*>(dst + 2 * i) = w[i];
      else if (2 * i < n) dst[2 * i] = half(w[i]);
    }
  } else {
    dst[0] = half(w[0]);
#pragma unroll
    for (int i = 0; i < 3; ++i) {  // values 2i + 1 and 2i + 2: a word from dst + 1 on
      if (2 * i + 2 < n) *reinterpret_cast<uint32_t*>(dst + 2 * i + 1) = __byte_perm(w[i], w[i + 1], 0x5432);
      else if (2 * i + 1 < n) dst[2 * i + 1] = half(w[i] >> 16);
    }
    if (n >= 8) dst[7] = half(w[3] >> 16);
  }
}
// The first min(n, V) values (value(x)) of type T at dst, from a shared-memory or computed source: 16-bit
// through store_words16, wider types one store a value.
template <typename T, int V, typename F>
__device__ __forceinline__ void store_part(T* dst, int n, F&& value) {
  n = min(n, V);
  if constexpr (sizeof(T) == 2 && V == 8) {
    if (n <= 0) return;
    uint32_t w[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const T lo = 2 * i < n ? value(2 * i) : T(0), hi = 2 * i + 1 < n ? value(2 * i + 1) : T(0);
      w[i] = uint32_t(*reinterpret_cast<const uint16_t*>(&lo)) | (uint32_t(*reinterpret_cast<const uint16_t*>(&hi)) << 16);
    }
    store_words16<T>(dst, w, n);
  } else {
#pragma unroll
    for (int x = 0; x < V; ++x)
      if (x < n) dst[x] = value(x);
  }
}

// A lane's 8 columns c .. c + 7 of a 16-bit C row after quad_transpose (w: two values a word, the lower
// column in the low half) at dst: one 16-byte store where vec (C's rows 16-byte aligned) and all 8 are
// below wc (the tile's columns inside nb), else those below wc one at a time (MIS: in words, store_words16).
template <typename T, bool MIS = false>
__device__ __forceinline__ void store_row8(T* dst, const uint32_t (&w)[4], bool vec, int c, int wc) {
  if (vec && c + 8 <= wc) {
    *reinterpret_cast<uint4*>(dst) = make_uint4(w[0], w[1], w[2], w[3]);
  } else if constexpr (MIS) {
    if (c < wc) store_words16<T>(dst, w, min(8, wc - c));
  } else {
#pragma unroll
    for (int x = 0; x < 8; ++x)
      if (c + x < wc) {
        const uint16_t b = uint16_t(w[x / 2] >> (16 * (x % 2)));
        dst[x] = *reinterpret_cast<const T*>(&b);
      }
  }
}

// A job: rows r0 .. r0 + bm of matrix X (first row `row` of the batch). One-panel batches: its nonzeros
// q0 .. q1 in CSR order, apos[q] their places in the tile. Batches with an A_i wider than a panel (the
// MP kernels): every job's nonzeros grouped by panel, as places (apos) and values (aval) in that order, each
// panel's run padded to whole groups of 8: panel 0 from group q0, panel p ending at qoff[pq + p]. Everything
// a block needs before its first loads, in one read (the block's chain of dependent global reads is part of
// what bounds small jobs).
struct alignas(16) TileJob {
  int row, c0, k, m;  // the job's first row (batch numbering), X's first column, X's k and m
  int r0, bm, q0, q1;
  int pq;  // MP: the job's panel ends in qoff
};

// Grid: jobs x chunks (chunk fastest, so the blocks that share a job's A rows run together); a chunk
// is `per` consecutive column tiles. apos: where a nonzero goes in its job's dense tile, (row - r0) * apitch
// + column (less the panel's first column, MP), in 16 bits (a tile is at most 64 x (kTilePanel + 8) places;
// 2 bytes a nonzero fewer than an int); one panel: in CSR order (values from val), MP: grouped by panel with
// their values in aval, made on the host in setup. An MP fill is 16-byte loads of 8 places and 8 values, 4-10
// bytes a nonzero (before: int2 codes {place, index in val} and a cp.async of the value, 10-16 bytes and an
// instruction a nonzero).
// f32 row-major one-panel 32- and 64-row jobs: at most 64 registers, so that 8 blocks fit an SM where
// shared memory allows (unbounded, the unrolled tile loop took 72-80 and row-major d48 cells lost 8-10 %;
// column-major f32 measured slower with the bound). Under it ptxas spills a few bytes, and which kernel
// moves with unrelated edits (9063514: the 32-row one 36 bytes; 09aca9d: the 64-row one 4): docs/spmm-notes.md.
// MP kernels of 32- and 64-row jobs: registers for 5 blocks an SM (f64 4), as before the grouped fill; unbounded
// it took 120-123 registers (f32), 161-168 (f64), a block an SM fewer, and the waves and k splits that follow
// from that cost sparse column-major cells 1.10-1.13x (bounded: 16-24 bytes of spills, within 1.04x of the
// old fill everywhere measured; docs/spmm-notes.md "batched-tile's multi-panel fill in groups").
// W: warps a block, kTileWarps, or 8 for f64 one-panel jobs (tile_warps_for): twice the columns a block
// (BN) on the same A tile.
// MIS (16-bit only): B or C off 16-byte alignment somewhere in the batch (column-major: an m_i or k_i not a
// multiple of 8; row-major: nb): B's copies through cp_async_part (asynchronous where the source is 4-byte
// aligned) and C's partial vectors in words, in kernels of their own, so that the aligned kernels' code and
// registers stay as they were (the same code in one kernel moved their registers by up to 10 and slowed
// column-major f16 d64 nB 256 1.09x; docs/spmm-notes.md, "misaligned B and C").
// MS: 16-row strips a warp (16-bit only): a warp's tile is 16 MS x 32, so that each B fragment serves MS A fragments
// (a k step of MS x 4 products against MS + 2 fragment loads) and a block's columns grow to 32 x W / (BM / 16 MS).
// PW: A's columns a panel, kTilePanel, or kTileWidePanel in one-panel 16-bit two-strip kernels (A_i of up to 256 columns
// held whole, so that a block's column tiles share one fill; the host's tile_wide takes them for k 129-192).
template <typename T, Layout L, int BM, bool MP, int KC = 32, int W = kTileWarps, bool MIS = false, int MS = 1, int PW = kTilePanel>
__global__ void __launch_bounds__(32 * W, MS > 1 ? (MS == 2 ? 4 : 3) : !MP ? (sizeof(T) == 4 && L == Layout::Row && BM >= 32 ? 8 : 0) : BM >= 32 ? (sizeof(T) == 8 ? 4 : 5) : 0)
    tile_kernel(const TileJob* __restrict__ jobs, const uint16_t* __restrict__ apos, const T* __restrict__ aval, const int* __restrict__ qoff,
                const T* __restrict__ val, const T* __restrict__ B, T* __restrict__ C, int nb, int kmax, int nct, int per,
                int ksplit, acc_t<T>* __restrict__ part, int* __restrict__ arrivals) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  using Op = TileMma<T>;
  using A_t = acc_t<T>;
  constexpr bool row = L == Layout::Row;
  constexpr int V = 16 / sizeof(T);  // values a 16-byte copy or store
  constexpr int WN = kTileWN, NT = WN / 8;                  // a warp's columns, as n8 tiles
  static_assert(W == kTileWarps || (sizeof(T) == 8 && !MP), "other warp counts: f64 one-panel kernels only");
  static_assert(!MIS || sizeof(T) == 2, "misaligned kernels: 16-bit only");
  constexpr int kThreads = 32 * W;
  static_assert(MS == 1 || (sizeof(T) == 2 && BM % (16 * MS) == 0 && W % (BM / (16 * MS)) == 0), "strips a warp: 16-bit, whole warps a row");
  constexpr int WC = W / (BM / (16 * MS)), BN = WN * WC;   // warps across the tile's columns; its columns
  constexpr bool direct = tile_direct_c<T>(row);
  constexpr int kStages = tile_stages<T>(row, KC), kTileK = KC;
  extern __shared__ __align__(128) unsigned char tile_smem[];
  static_assert(PW == kTilePanel || (!MP && MS == 2 && sizeof(T) == 2 && PW == kTileWidePanel), "wide panels: one-panel 16-bit two-strip kernels");
  const TileGeom<T> g(BM, kmax, row, KC, W, MS, PW);
  T* As = reinterpret_cast<T*>(tile_smem);
  T* Bs = reinterpret_cast<T*>(tile_smem + g.b_off);
  A_t* Cs = reinterpret_cast<A_t*>(tile_smem + g.c_off);  // f32, 16-bit: the column tile's sums
  const int ap = g.apitch, bp = g.bpitch, cp = g.cpitch;

  const int nchunks = (nct + per - 1) / per;
  const int split = MP ? int(blockIdx.x % ksplit) : 0, bid = MP ? int(blockIdx.x / ksplit) : int(blockIdx.x);
  const int jb = bid / nchunks, chunk = bid - jb * nchunks;
  const TileJob job = jobs[jb];
  const int m = job.m, r0 = job.r0, bm = job.bm, c0 = job.c0, k = job.k;
  const int ct0 = chunk * per, ct1 = min(nct, ct0 + per);
  if (ct0 >= ct1) return;  // uniform over the block: before any barrier
  const int nk = max(1, (k + kTileK - 1) / kTileK);
  constexpr int PC = PW / kTileK;  // chunks a panel
  // MP, ksplit > 1 (grids under a wave): the block takes panels p0 .. p1 of its job's k, and the column
  // tile's partial sums meet in `part` (see the column tile's end); kc0 .. kc1: its chunks (one-panel: all).
  const int np = (k + kTilePanel - 1) / kTilePanel;
  const int p0 = MP ? split * np / ksplit : 0, p1 = MP ? (split + 1) * np / ksplit : 1;
  const int kc0 = MP ? p0 * PC : 0, kc1 = MP ? min(nk, p1 * PC) : nk;
  const bool multi = MP && k > kTilePanel;  // uniform over the block
  const T* Bi = B + int64_t(c0) * nb;
  T* Ci = C + int64_t(job.row - r0) * nb;  // C_i: X's rows, in C's layout
  // 16-byte copies where every address of the B_i chunk is a multiple of 16 bytes (cudaMalloc'd base).
  const bool vecB = row ? nb % V == 0 : (k % V == 0 && (int64_t(c0) * nb) % V == 0);

  // B chunk (column tile ct, rows kTileK * kc on) into stage st. Rows past k_i are zeros (they meet A's
  // zero padding; garbage there could be NaN); columns past nb are left as they are (they only reach
  // C's columns past nb, which are not stored).
  auto issue = [&](int ct, int kc, T* st) {
    const int j0 = ct * BN, wc = min(BN, nb - j0);
    const int k0 = kc * kTileK, kr = min(kTileK, k - k0);
    // MP kernels, a whole chunk (every row inside k_i, every column inside nb; uniform over the block):
    // a thread's copies are one row pass apart, with no tests (the general loop cost ~30 instructions a
    // copy; d256, 128 a row, nb 128: 62.4 -> 57.1 us). In the one-panel kernels f64 row-major only: there
    // the offsets, held across the tile loop, made the 64-register f32 kernels spill (d32, nb 256: 5 %
    // slower) and the f64 column-major ones (8-12 bytes, 1.07-1.09x slower), where f64 row-major ran
    // 0.87-0.95x the time at k >= 96 (d128, nb 256: 303 -> 265 us; docs/spmm-notes.md).
    const bool whole = (MP || (sizeof(T) == 8 && row)) && vecB && kr == kTileK && wc == BN;
    // lines (B rows, row-major; columns, column-major) of the chunk from `src` (pitch ld in B, bp in the
    // stage), per_line 16-byte vectors each: a thread's copies are kThreads / per_line lines apart.
    auto whole_lines = [&](auto lines, auto per_line, const T* src, int64_t ld) {
      constexpr int PL = decltype(per_line)::value, P = kThreads / PL;
      const int a = int(threadIdx.x / PL), b = int(threadIdx.x % PL) * V;
      src += a * ld + b;
#pragma unroll
      for (int i = 0; i < decltype(lines)::value / P; ++i) cp_async16(st + (a + i * P) * bp + b, src + int64_t(i * P) * ld);
    };
    if (row) {
      constexpr int per_row = BN / V;
      if (whole) return whole_lines(std::integral_constant<int, kTileK>(), std::integral_constant<int, per_row>(), Bi + int64_t(k0) * nb + j0, nb);
      if (MIS && !vecB) {  // misaligned rows (nb % 8 != 0)
#pragma unroll 1
        for (int e = threadIdx.x; e < kTileK * per_row; e += kThreads) {
          const int r = e / per_row, j = (e % per_row) * V;
          T* d = st + r * bp + j;
          if (r >= kr) *reinterpret_cast<VecT<T, V>*>(d) = VecT<T, V>{};
          else if (j < wc) cp_async_part<T, V>(d, Bi + int64_t(k0 + r) * nb + j0 + j, wc - j);
        }
        return;
      }
#pragma unroll
      for (int i = 0; i < kTileK * per_row / kThreads; ++i) {
        const int e = threadIdx.x + i * kThreads, r = e / per_row, j = (e % per_row) * V;
        T* d = st + r * bp + j;
        const T* src = Bi + int64_t(k0 + r) * nb + j0 + j;
        if (r >= kr) *reinterpret_cast<VecT<T, V>*>(d) = VecT<T, V>{};
        else if (j < wc) {
          if (vecB) cp_async16(d, src);
          else
            for (int x = 0; x < V && j + x < wc; ++x) d[x] = src[x];
        }
      }
    } else {
      constexpr int per_col = kTileK / V;
      if (whole) return whole_lines(std::integral_constant<int, BN>(), std::integral_constant<int, per_col>(), Bi + int64_t(j0) * k + k0, k);
      if (MIS && !vecB) {  // misaligned columns (k % 8 != 0)
#pragma unroll 1
        for (int e = threadIdx.x; e < BN * per_col; e += kThreads) {
          const int j = e / per_col, r = (e % per_col) * V;
          if (j < wc) cp_async_part<T, V>(st + j * bp + r, Bi + int64_t(j0 + j) * k + k0 + r, kr - r);
        }
        return;
      }
#pragma unroll
      for (int i = 0; i < BN * per_col / kThreads; ++i) {
        const int e = threadIdx.x + i * kThreads, j = e / per_col, r = (e % per_col) * V;
        if (j >= wc) continue;
        T* d = st + j * bp + r;
        const T* src = Bi + int64_t(j0 + j) * k + k0 + r;
        if (vecB && r + V <= kr) {
          cp_async16(d, src);
        } else {
#pragma unroll
          for (int x = 0; x < V; ++x) d[x] = r + x < kr ? src[x] : T(0);
        }
      }
    }
  };
  // Chunks in order: (ct0, kc0), (ct0, kc0 + 1), ..., (ct0 + 1, kc0), ...; `ic`/`ik`: the next one to issue.
  int ic = kc0 < kc1 ? ct0 : ct1, ik = kc0, is = 0;
  auto issue_next = [&]() {
    if (ic < ct1) {
      issue(ic, ik, Bs + size_t(is) * g.stage);
      if (++ik == kc1) { ik = kc0; ++ic; }
      is = is + 1 == kStages ? 0 : is + 1;
    }
    cp_async_commit();
  };
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) issue_next();

  // Panel p of the job's rows of A, dense (the whole of them where k <= kTilePanel): the first
  // nonzeros' loads go out before the tile is zeroed, so that their latency overlaps it and the
  // barrier. The caller makes sure nobody still reads the tile, and syncs before it is read.
  auto zero_a = [&]() {
    const int n16 = BM * ap / V;
    for (int e = threadIdx.x; e < n16; e += kThreads) reinterpret_cast<VecT<T, V>*>(As)[e] = VecT<T, V>{};
  };
  auto fill = [&](int p) {
    constexpr int PF = 4;
    if constexpr (MP) {
      // Groups of 8 nonzeros: 8 places (16 bytes) and their 8 values, each a run of whole 16-byte loads; the first
      // PG groups a thread go out before the tile is zeroed. Padding places are kTilePad.
      constexpr int PG = sizeof(T) == 8 ? 1 : 2, NV = 8 * int(sizeof(T)) / 16;  // NV: 16-byte loads a group's values
      const int e0 = p ? __ldg(qoff + job.pq + p - 1) : job.q0, e1 = __ldg(qoff + job.pq + p);
      const uint4* pw = reinterpret_cast<const uint4*>(apos);
      const uint4* vw = reinterpret_cast<const uint4*>(aval);
      auto load = [&](int e, uint4& pl, uint4 (&vl)[NV]) {
        pl = __ldg(pw + e);
#pragma unroll
        for (int x = 0; x < NV; ++x) vl[x] = __ldg(vw + int64_t(e) * NV + x);
      };
      auto put = [&](const uint4& pl, const uint4 (&vl)[NV]) {
        const uint32_t w[4] = {pl.x, pl.y, pl.z, pl.w};
        const T* v = reinterpret_cast<const T*>(vl);
#pragma unroll
        for (int x = 0; x < 8; ++x) {
          const unsigned at = (w[x / 2] >> (16 * (x % 2))) & 0xffffu;
          if (at != kTilePad) As[at] = v[x];
        }
      };
      uint4 pl[PG], vl[PG][NV];
#pragma unroll
      for (int i = 0; i < PG; ++i) {
        const int e = e0 + threadIdx.x + i * kThreads;
        if (e < e1) load(e, pl[i], vl[i]);
      }
      zero_a();
      __syncthreads();
#pragma unroll
      for (int i = 0; i < PG; ++i)
        if (e0 + threadIdx.x + i * kThreads < e1) put(pl[i], vl[i]);
      for (int e = e0 + threadIdx.x + PG * kThreads; e < e1; e += kThreads) {
        uint4 p1, v1[NV];
        load(e, p1, v1);
        put(p1, v1);
      }
    } else {
      const int q0 = job.q0, q1 = job.q1;
      T v[PF];
      unsigned pos[PF];
#pragma unroll
      for (int i = 0; i < PF; ++i) {
        const int q = q0 + threadIdx.x + i * kThreads;
        if (q < q1) { v[i] = __ldg(val + q); pos[i] = __ldg(apos + q); }
      }
      zero_a();
      __syncthreads();
#pragma unroll
      for (int i = 0; i < PF; ++i)
        if (q0 + threadIdx.x + i * kThreads < q1) As[pos[i]] = v[i];
      for (int q = q0 + threadIdx.x + PF * kThreads; q < q1; q += kThreads) As[__ldg(apos + q)] = __ldg(val + q);
    }
  };
  if (kc0 < kc1) fill(kc0 / PC);  // uniform

  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, gq = lane >> 2, tq = lane & 3;
  const int strip = warp / WC, cg = warp % WC;
  A_t acc[MS][NT][4];
  auto zero_acc = [&]() {  // (the column tile done, or handed to the split's last block)
#pragma unroll
    for (int u = 0; u < MS; ++u)
#pragma unroll
      for (int j = 0; j < NT; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) acc[u][j][e] = A_t(0);
  };
  zero_acc();
  const T* Aw = As + (strip * 16 * MS) * ap;  // this warp's 16 MS rows
  unsigned a_lane = 0, b_lane = 0;        // kPair: the lane's parts of its fragment addresses
  if constexpr (Op::kPair) a_lane = Op::a_lane(ap, lane), b_lane = Op::template b_lane<row>(bp, lane);
  const bool vecC2 = nb % 2 == 0;        // direct, row-major: a lane's two columns are one aligned pair
  const bool vecC = row ? nb % V == 0 : (m % V == 0 && (int64_t(job.row - r0) * nb) % V == 0);

  int cs = 0;  // stage of the chunk in hand
  for (int ct = ct0; ct < ct1; ++ct) {
    const int j0 = ct * BN, wc = min(BN, nb - j0);
    const int nt = min(NT, (wc - cg * WN + 7) / 8);  // this warp's n8 tiles with columns below nb (uniform)
    const bool active = strip * 16 * MS < bm && nt > 0;
    for (int kc = kc0; kc < kc1; ++kc) {
      cp_async_wait<kStages - 2>();  // the chunk in hand has landed (this thread's copies)
      __syncthreads();                   // everyone's copies, and everyone is done with the previous chunk's stage
      // A wider than a panel: the chunk starts a panel (the barrier above: nobody reads the last one); the next
      // chunk's copies go out first, so that they are in flight while the panel is filled.
      const bool refill = multi && kc % PC == 0 && (kc > kc0 || ct > ct0);
      issue_next();
      if (refill) {
        fill(kc / PC);
        __syncthreads();
      }
      const T* st = Bs + size_t(cs) * g.stage;
      cs = cs + 1 == kStages ? 0 : cs + 1;
      const int k0 = kc * kTileK, kend = min(kTileK, max(k - k0, 0));
      if (!active) continue;
      const T* Ak = Aw + (kc % PC) * kTileK;
      const T* Bw = row ? st + cg * WN : st + cg * WN * bp;
      // The warp's n8 tiles as a compile-time count (NT but where nb ends inside its columns): behind a
      // runtime bound each tile's loads and products sat after a branch and waited on the last tile's;
      // unrolled they interleave (row-major and f64 up to 26 % faster; docs/spmm-notes.md also has the
      // column-major f32 cells it made slower).
      // kPair: the chunk's fragment addresses (see TileMma16::a_lane).
      const unsigned a_at = Op::kPair ? smem_addr(Ak) + a_lane : 0u, b_at = Op::kPair ? smem_addr(Bw) + b_lane : 0u;
      auto step = [&](auto tiles, int kk) {
        constexpr int n = decltype(tiles)::value;
        if constexpr (Op::kPair) {
          typename Op::A a[MS];
#pragma unroll
          for (int u = 0; u < MS; ++u) Op::load_a(a_at + unsigned(u * 16 * ap * int(sizeof(T))) + 2u * kk, a[u]);
#pragma unroll
          for (int j = 0; j < n; j += 2) {  // pairs of n8 tiles (the second's fragment, past n, is not used)
            typename Op::B b0, b1;
            Op::template load_b2<row>(b_at + Op::template b_at<row>(bp, j * 8, kk), b0, b1);
#pragma unroll
            for (int u = 0; u < MS; ++u) {
              Op::mma(acc[u][j], a[u], b0);
              if (j + 1 < n) Op::mma(acc[u][j + 1], a[u], b1);
            }
          }
        } else {
          typename Op::A a;
          Op::load_a(Ak + kk, ap, gq, tq, a);
#pragma unroll
          for (int j = 0; j < n; ++j) {
            typename Op::B b;
            Op::template load_b<row>(row ? Bw + kk * bp + j * 8 : Bw + j * 8 * bp + kk, bp, gq, tq, b);
            Op::mma(acc[0][j], a, b);
          }
        }
      };
      // 16-bit: a whole chunk (kend = kTileK, all but a k's last) unrolled, the k steps' offsets
      // constants. (f32 and f64 keep the loop: unrolled, the 32- and 16-row f32 kernels spilled 16-24
      // bytes and spmm-wide's d32 / d16 f32 cells ran 7-9 % slower.)
      auto steps = [&](auto tiles) {
        if (Op::kPair && kend == kTileK) {
#pragma unroll
          for (int kk = 0; kk < kTileK; kk += Op::K) step(tiles, kk);
        } else {
#pragma unroll 2
          for (int kk = 0; kk < kend; kk += Op::K) step(tiles, kk);
        }
      };
      static_assert(NT == 4, "one case a tile count");
      switch (nt) {
        case 1: steps(std::integral_constant<int, 1>{}); break;
        case 2: steps(std::integral_constant<int, 2>{}); break;
        case 3: steps(std::integral_constant<int, 3>{}); break;
        default: steps(std::integral_constant<int, 4>{});
      }
    }
    // The column tile is done. Split k: every block stores its partial sums (a thread's in strided
    // slots, coalesced), and the last of the tile's blocks to arrive adds them all, in split order (the
    // sum does not depend on who is last), stores C and resets the tile's count for the next launch.
    if constexpr (MP) {
      if (ksplit > 1) {
        __shared__ int last;
        const int64_t tile = int64_t(jb) * nct + ct;
        constexpr int NA = MS * NT * 4;
        A_t* mine = part + (tile * ksplit + split) * (NA * kThreads) + threadIdx.x;
#pragma unroll
        for (int u = 0; u < MS; ++u)
#pragma unroll
          for (int j = 0; j < NT; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e) mine[((u * NT + j) * 4 + e) * kThreads] = acc[u][j][e];
        __threadfence();
        __syncthreads();
        if (threadIdx.x == 0) {
          last = atomicAdd(arrivals + tile, 1) == ksplit - 1;
          if (last) arrivals[tile] = 0;
        }
        __syncthreads();
        if (!last) {
          zero_acc();
          continue;
        }
        __threadfence();
        const A_t* all = part + tile * ksplit * (NA * kThreads) + threadIdx.x;
        // A split's NA loads at once, then the sums in split order. (A load a sum in turn waited out an L2
        // round trip each: batch 8 of d768, nb 32, two splits 28.9 -> 20.4 us; docs/spmm-notes.md.)
#pragma unroll
        for (int u = 0; u < MS; ++u) {  // a strip at a time (MS 1: as before)
          A_t sum[NT][4];
#pragma unroll
          for (int j = 0; j < NT; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e) sum[j][e] = A_t(0);
          for (int q = 0; q < ksplit; ++q) {
            A_t v[NT][4];
#pragma unroll
            for (int j = 0; j < NT; ++j)
#pragma unroll
              for (int e = 0; e < 4; ++e) v[j][e] = q == split ? acc[u][j][e] : __ldcg(all + (q * NA + (u * NT + j) * 4 + e) * kThreads);
#pragma unroll
            for (int j = 0; j < NT; ++j)
#pragma unroll
              for (int e = 0; e < 4; ++e) sum[j][e] += v[j][e];
          }
#pragma unroll
          for (int j = 0; j < NT; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e) acc[u][j][e] = sum[j][e];
        }
      }
    }
    if constexpr (direct && sizeof(T) == 2) {
      // 16-bit, row-major: after the quad transpose lane tq holds n8 tile tq of its rows, 8 columns.
      if (!active) continue;
      const int c = cg * WN + 8 * tq;  // the lane's first column within the tile
#pragma unroll
      for (int u = 0; u < MS; ++u)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          uint32_t p[NT];
          static_assert(NT == 4, "a quad transposes 4 tiles");
#pragma unroll
          for (int j = 0; j < NT; ++j) p[j] = pack16<T>(acc[u][j][2 * h], acc[u][j][2 * h + 1]);
          quad_transpose(p, tq);
          const int r = (strip * MS + u) * 16 + gq + 8 * h;
          if (r >= bm || tq >= nt) continue;
          store_row8<T, MIS>(Ci + int64_t(r0 + r) * nb + j0 + c, p, vecC, c, wc);
        }
      zero_acc();
      continue;
    }
    if (direct) {
      // C straight from the accumulators: a lane holds two adjacent columns of rows g and g + 8; a
      // quad's store covers 8 columns of a row (row-major), a warp's 8 consecutive rows of a column.
      if (!active) continue;
#pragma unroll
      for (int j = 0; j < NT; ++j) {
        if (j >= nt) break;
        const int c = cg * WN + j * 8 + 2 * tq;  // column within the tile
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const int r = strip * 16 + gq + 8 * h;
          if (r >= bm || c >= wc) continue;
          const T v0 = narrow<T>(acc[0][j][2 * h]), v1 = narrow<T>(acc[0][j][2 * h + 1]);
          if (row) {
            T* dst = Ci + int64_t(r0 + r) * nb + j0 + c;
            if (vecC2 && c + 1 < wc) {
              VecT<T, 2> o;
              o.x[0] = v0;
              o.x[1] = v1;
              *reinterpret_cast<VecT<T, 2>*>(dst) = o;
            } else {
              dst[0] = v0;
              if (c + 1 < wc) dst[1] = v1;
            }
          } else {
            T* dst = Ci + int64_t(j0 + c) * m + r0 + r;
            dst[0] = v0;
            if (c + 1 < wc) dst[m] = v1;
          }
        }
#pragma unroll
        for (int e = 0; e < 4; ++e) acc[0][j][e] = A_t(0);
      }
      continue;
    }
    // Through shared memory, then whole 16-byte vectors of C (the next column tile's first barrier
    // comes before anyone writes Cs again).
    if (active) {
#pragma unroll
      for (int u = 0; u < MS; ++u)
#pragma unroll
        for (int j = 0; j < NT; ++j) {
          const int r = (strip * MS + u) * 16 + gq, c = cg * WN + j * 8 + 2 * tq;
#pragma unroll
          for (int e = 0; e < 4; ++e) {
            const int rr = r + (e >> 1) * 8, cc = c + (e & 1);
            Cs[row ? rr * cp + cc : cc * cp + rr] = acc[u][j][e];
            acc[u][j][e] = A_t(0);
          }
        }
    }
    __syncthreads();
    if (row) {
      constexpr int per_row = BN / V;
      for (int e = threadIdx.x; e < BM * per_row; e += kThreads) {
        const int r = e / per_row, j = (e % per_row) * V;
        if (r >= bm || j >= wc) continue;
        const A_t* src = Cs + r * cp + j;
        T* dst = Ci + int64_t(r0 + r) * nb + j0 + j;
        if (vecC) {
          VecT<T, V> o;
#pragma unroll
          for (int x = 0; x < V; ++x) o.x[x] = narrow<T>(src[x]);
          *reinterpret_cast<VecT<T, V>*>(dst) = o;
        } else if constexpr (MIS) {
          store_part<T, V>(dst, wc - j, [&](int x) { return narrow<T>(src[x]); });
        } else {
          for (int x = 0; x < V && j + x < wc; ++x) dst[x] = narrow<T>(src[x]);
        }
      }
    } else {
      constexpr int per_col = (BM + V - 1) / V;
      for (int e = threadIdx.x; e < BN * per_col; e += kThreads) {
        const int j = e / per_col, r = (e % per_col) * V;
        if (j >= wc || r >= bm) continue;
        const A_t* src = Cs + j * cp + r;
        T* dst = Ci + int64_t(j0 + j) * m + r0 + r;
        if (vecC) {  // m % V == 0, so bm and r0 are too
          VecT<T, V> o;
#pragma unroll
          for (int x = 0; x < V; ++x) o.x[x] = narrow<T>(src[x]);
          *reinterpret_cast<VecT<T, V>*>(dst) = o;
        } else if constexpr (MIS) {
          store_part<T, V>(dst, bm - r, [&](int x) { return narrow<T>(src[x]); });
        } else {
          for (int x = 0; x < V && r + x < bm; ++x) dst[x] = narrow<T>(src[x]);
        }
      }
    }
  }
  cp_async_wait<0>();  // no copy outlives the block
#endif
}

}  // namespace spb
