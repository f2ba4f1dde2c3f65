// Our whole-matrix tile kernel (batched-slab): a block computes a slab of C_i, all m_i rows of one A_i
// times a BN-column tile of B_i, with every operand in shared memory at once. Where the largest A_i and a
// tile do not fit a block, a block takes a slice of rows of A_i instead (the plan's SlabJob; each slice
// stages the B tile again).
//
// batched-tile gives a block BM rows of A_i and streams B_i through a pipeline of 32-row chunks: per
// chunk a wait, a barrier and the copies' address arithmetic, and B_i is read again for every BM rows.
// On A_i whose m or k is not a multiple of its chunks (m = 80: jobs of 32 + 32 + 16 rows; k = 80:
// chunks of 32 + 32 + 16) that bookkeeping was ~20x the instructions that load fragments and multiply
// (ncu source counters on 800 x d80, 20 a row, nB 192, f16: 2235 warp instructions a warp, 65 % of
// the issue slots busy, against cuBLAS's persistent kernel at 3.2 M instructions in all; docs/spmm-notes.md,
// "batched-slab"). Here a block issues all of its B tile (k_i x BN) with cp.async at once, scatters
// A_i (all rows, dense, zero-padded to 16-row strips) meanwhile, waits once, and then each warp takes
// (16-row strip, 32-column group) pairs of the slab in turn: a pair is the k loop of tensor-core steps
// (TileMma: 3xTF32, DMMA, or 16-bit with f32 sums) and its store. So B_i is read once per column
// tile for all rows, and the only per-block overhead is the fill and one barrier; the blocks an SM
// holds at once (4-8) overlap each other's copies with their products.
// The k step and the f32 / f64 C stores repeat batched-tile's: made one set of shared functions, they changed
// ptxas's allocation of tile's measured kernels (registers moved in 40 of 48, spills appeared in 8), so
// they stay apart until a GPU A/B can weigh that (docs/spmm-notes.md, "batched-slab"). The 16-bit row-major
// store is one function of both (store_row8; the driver's sm_90 cubin byte-identical with and without it).
#pragma once
#include <cstdint>
#include "tile.cuh"
#include "words16.cuh"

namespace spb {

// SPB_SLAB_WARPS: compile-time override for development sweeps only.
#ifdef SPB_SLAB_WARPS
constexpr int kSlabWarps = SPB_SLAB_WARPS;
#else
constexpr int kSlabWarps = 8;
#endif
constexpr int kSlabWN = 32;              // columns of a warp's pair: 4 n8 tiles (as batched-tile's warps)
constexpr int kSlabTileMax = 1 << 16;  // values of a block's A tile: apos is 16 bits

// Shared-memory geometry of one launch, in elements: A as mp x apitch (rows up to the batch's largest
// m rounded to 16-row strips), the B tile as kp rows x bpitch (row-major) or BN columns x bpitch
// (column-major), then (16-bit column-major) each warp's 16 x 32 C staging. kp: the largest k rounded to
// 16 (16-bit: ldmatrix reads k16 blocks) or 8. Pitches as batched-tile's (TileGeom): every fragment load
// of a warp hits distinct banks, and rows start on 16 bytes (cp.async destinations). fw (flat MIS kernels: 16-bit
// column-major, and row-major where one tile covers nb): the values of a run's line (bn column-major, nb row-major);
// the staging's place holds the B tile's flat run (flat_issue16) until it is unpacked, then the C tile's
// (flat_store16): fw x max(max_k, max_m) values and slack.
template <typename T>
struct SlabGeom {
  static constexpr int apad = sizeof(T) == 2 ? 8 : 4;
  static constexpr int brow_pad = sizeof(T) == 8 ? 4 : 8, bcol_pad = apad;
  static constexpr int wpitch = 24;  // 16-bit column-major staging: 16 rows + 8, a column 48 bytes
  int mp, kp, apitch, bpitch;
  size_t b_off, w_off, bytes;
  // ms: strips a warp's pair (slab_kernel's MS); A's rows are zero-padded to whole pairs of strips.
  __host__ __device__ SlabGeom(int max_m, int max_k, int bn, bool row, int ms = 1, int fw = 0) {
    const int kq = sizeof(T) == 2 ? 16 : sizeof(T) == 8 && SPB_F64_MMA_K > 8 ? SPB_F64_MMA_K : 8;  // a multiple of TileMma<T>::K
    mp = ((max_m < 1 ? 1 : max_m) + 16 * ms - 1) / (16 * ms) * (16 * ms);
    kp = ((max_k < 1 ? 1 : max_k) + kq - 1) / kq * kq;
    apitch = kp + apad;
    bpitch = row ? bn + brow_pad : kp + bcol_pad;
    auto up = [](size_t b) { return (b + 127) / 128 * 128; };
    b_off = up(size_t(mp) * apitch * sizeof(T));
    w_off = b_off + up(size_t(row ? kp : bn) * bpitch * sizeof(T));
    const size_t staging = sizeof(T) == 2 && !row ? size_t(kSlabWarps) * kSlabWN * wpitch * sizeof(T) : 0;  // (column-major kernels: kSlabWarps)
    const int runk = max_k > max_m ? max_k : max_m;  // a B tile's run, then a C tile's
    const size_t run = fw ? up((size_t(fw) * (runk < 1 ? 1 : runk) + 8 + 16) * sizeof(T)) : 0;  // delta, the run, slack
    bytes = w_off + (run > staging ? run : staging);
  }
};

// A job: m rows of matrix X from its row r0 (first row `row` of the batch, first column c0 of the stacked
// B, k of X, mx its rows: the column-major stride of C_i) and their nonzeros q0 .. q1 in CSR order; apos[q]:
// where nonzero q goes in the dense A tile, in 16 bits (slab_plan keeps a block's tile within kSlabTileMax
// values): 2 bytes a nonzero fewer than an int, a third of A's bytes in 16-bit batches. All of X (r0 = 0,
// m = mx) where it fits beside a B tile, else slices of rows, each staging the B tile again.
struct alignas(16) SlabJob {
  int row, c0, k, m;
  int q0, q1, r0, mx;
};

// Grid: jobs x column tiles (the tile fastest, so the blocks of one A_i run together). BN: columns of
// a block's tile, 32, 64 or 128.
// H: the whole-row copies and the addresses made once a warp (below); the host (Slab::with_kernel) sets it
// for 16-bit and f64 always, for f32 where k_i reach 64: with them f32 took 64 registers (48 without;
// column-major 68 against 64), one block an SM fewer, and small-k cells ran up to 1.2x slower (H100, batch 10000 of d32, nb 16: 55.2 against 45.7 us;
// d16 nb 1024 60.5 against 56.3), where d64 nb 256 ran 60.6 against 62.9 (docs/spmm-notes.md).
// 16-bit: at most 40 registers, so that registers leave room for 6 blocks an SM (their shared memory
// does at BN 128); unbounded, the addresses made once a warp (below) took 48 and 5 blocks. Bounded to 32
// (8 blocks) they spilled and ran 1.4-1.6x slower (docs/spmm-notes.md).
// FK (f64): the DMMA k step (TileMma's KF): 4 where k <= 32, else 8 (Slab::with_kernel). m16n8k8 takes 80
// registers (3 blocks an SM) against m8n8k4's 64, and at k = 24-32 ran 1.04-1.12x slower; bounded to 64
// it spilled 32 bytes and ran 1.03-1.10x slower at k >= 32 (docs/spmm-notes.md).
// FK (f32): 1 where k is long, 3xTF32's small terms in an accumulator of their own (TileMma<float>).
// MS: 16-row strips a warp's pair (1 or 2; 2 for f32 only, slab_plan). With 2 a warp's tile is 32 x 32:
// each B fragment and its 3xTF32 split serve two A fragments, and a k step has twice the independent
// accumulators: 80 registers (3 blocks an SM; 4-byte spills), 125 with FK 1 (2 blocks); the strips of a
// job are padded to an even count with zero rows.
// W: warps a block, kSlabWarps, or 12 for 16-bit row-major blocks whose pairs take 8 warps three rounds or
// more and 12 fewer (slab_warps_for); at 4 blocks an SM the 40 registers still fit (12 warps a scheduler).
// MIS: as batched-tile's (tile_kernel): 16-bit batches with B or C off 16-byte alignment, kernels of their own (1);
// 2: row-major with nb % 4 != 0 (rows only 2- or 4-byte aligned), B's rows copied a word a lane (copy_lines16): on 14
// such cells 0.98-1.09x as fast as 1's 16-byte vectors a thread (geometric mean 1.03), where at nb % 4 == 0 (8-byte
// copies) d24-d48 ran 0.82-0.94x (H100, docs/spmm-notes.md "words16"; column-major B: 0.83-1.10x, not kept).
// Column-major MIS kernels move a misaligned B tile and C tile each as one flat run of 16-byte copies and stores
// (words16.cuh): the B run alone was 0.97-1.16x as fast as per-column 4-byte copies and plain loads at odd starts
// (geometric mean 1.04 on 33 cells); the C run then 1.15-2.54x as fast as C through the per-warp staging in 2- and
// 4-byte stores (geometric mean 1.67 on 27 misaligned cells; H100, docs/spmm-notes.md "flat runs").
// 3: row-major where one column tile covers nb (wc = nb): B_i's k rows and the job's m rows of C are each one run, moved
// the same way (the MIS 1 / 2 row-major kernels store a lane's 8 values of C in 4-byte pieces).
template <typename T, Layout L, int BN, bool H, int FK = 0, int MS = 1, int W = kSlabWarps, int MIS = 0>
__global__ void __launch_bounds__(32 * W, MS == 2 ? (FK == 1 ? 2 : 3) : sizeof(T) == 2 ? (W > 8 ? 4 : 6) : 0) slab_kernel(const SlabJob* __restrict__ jobs, const uint16_t* __restrict__ apos, const T* __restrict__ val,
                                                            const T* __restrict__ B, T* __restrict__ C, int nb, int max_m, int max_k, int nct) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  using Op = TileMma<T, FK>;
  using A_t = acc_t<T>;
  constexpr bool row = L == Layout::Row;
  constexpr int V = 16 / sizeof(T);  // values a 16-byte copy or store
  constexpr int NT = kSlabWN / 8;
  static_assert(BN % kSlabWN == 0 && NT == 4, "a warp's pair is 4 n8 tiles");
  extern __shared__ __align__(128) unsigned char slab_smem[];
  static_assert(MS == 1 || MS == 2, "one or two strips a pair");
  static_assert(!MIS || sizeof(T) == 2, "misaligned kernels: 16-bit only");
  static_assert(MIS != 2 || L == Layout::Row, "word copies: row-major B");
  static_assert(W == kSlabWarps || (sizeof(T) == 2 && L == Layout::Row), "other warp counts: 16-bit row-major only (no column-major C staging for them)");
  constexpr int kThreads = 32 * W;
  static_assert(MIS != 3 || L == Layout::Row, "row-major runs");
  // B and C tiles as flat runs (words16.cuh): column-major MIS 1; row-major MIS 3, where the host makes one column
  // tile cover nb (B_i's k rows and a job's m rows of C_i are then each one run of nb-value lines).
  constexpr bool flat = (MIS == 1 && L == Layout::Col) || MIS == 3;
  const SlabGeom<T> g(max_m, max_k, BN, row, MS, flat ? BN : 0);  // (the kernel reads only offsets, not the run's size)
  T* As = reinterpret_cast<T*>(slab_smem);
  T* Bs = reinterpret_cast<T*>(slab_smem + g.b_off);
  const int ap = g.apitch, bp = g.bpitch;
  const int tid = threadIdx.x;

  const int jb = int(blockIdx.x / nct), ct = int(blockIdx.x - int64_t(jb) * nct);
  const SlabJob job = jobs[jb];
  const int m = job.m, k = job.k, c0 = job.c0;
  const int j0 = ct * BN, wc = min(BN, nb - j0);
  const int kend = (k + Op::K - 1) / Op::K * Op::K;  // the k the products run over; B rows / A columns past k are zeros
  const T* Bi = B + int64_t(c0) * nb;
  T* Ci = C + int64_t(job.row) * nb;  // row-major: the job's first row of C
  const int mx = job.mx;
  // Flat kernels: C's column tile, all rows of C_i (a whole job), is one run too, gathered in the staging's place and
  // stored with 16-byte stores after the last pair (flat_store16); a slice of rows keeps the per-warp staging.
  const bool cflat = flat && (row || (job.r0 == 0 && m == mx));
  T* const Cc = C + (int64_t(job.row) - job.r0) * nb + job.r0;  // column-major: C_i[j mx + r0 + r] = Cc[j mx + r]
  T* const Crun = row ? Ci : Cc + int64_t(j0) * mx;  // (cflat) where the C run starts in global memory
  // 16-byte copies where every address of the B_i tile is a multiple of 16 bytes (cudaMalloc'd base).
  const bool vecB = row ? nb % V == 0 : (k % V == 0 && (int64_t(c0) * nb) % V == 0);

  Flat16 fl{-1, 0};  // (flat kernels: this thread's tail value)
  // 1. The B tile, all at once: rows (row-major) or columns (column-major) of 16-byte vectors. Rows past
  // k_i (to kend) are zeros: they meet A's zero padding, and garbage there could be NaN. Columns past nb
  // are left as they are (they reach only C's columns past nb, which are not stored).
  if (row) {
    // A thread's copies are a fixed column and every RS-th row (per_row divides the block's threads).
    constexpr int per_row = BN / V, RS = kThreads / per_row;
    static_assert(kThreads % per_row == 0, "whole rows a pass");
    const int j = (tid % per_row) * V;
    int r = tid / per_row;
    T* d = Bs + r * bp + j;
    const T* src = Bi + int64_t(r) * nb + j0 + j;
    if constexpr (MIS == 3) {
      // The tile is all of B_i (wc = nb): one run of k nb values, unpacked into the tile's rows after the wait.
      fl = flat_issue16<kThreads>(reinterpret_cast<uint16_t*>(slab_smem + g.w_off), reinterpret_cast<const uint16_t*>(Bi), k * nb, tid);
      for (int e = k * bp / V + tid; e < kend * bp / V; e += kThreads) reinterpret_cast<VecT<T, V>*>(Bs)[e] = VecT<T, V>{};
      r = kend;  // the loops below have nothing left
    } else if constexpr (MIS == 2) {
      // Rows only 2- or 4-byte aligned (nb % 4 != 0): a word a lane (words16.cuh), LG rows a call (4 passes of the
      // block), the tile's columns to wc (rounded to a word).
      constexpr int LG = kThreads / (BN / 2 < 32 ? BN / 2 : 32) * 4;
      for (int r1 = 0; r1 < kend; r1 += LG)
        copy_lines16<LG, BN / 2, kThreads>(reinterpret_cast<uint16_t*>(Bs) + r1 * bp, bp,
                                           reinterpret_cast<const uint16_t*>(Bi) + int64_t(r1) * nb + j0, nb, kend - r1, k - r1,
                                           (wc + 1) & ~1, wc);
      r = kend;  // the loops below have nothing left
    } else if (MIS && !vecB) {
      // Misaligned rows (nb % 8 != 0): 16-byte vectors, asynchronous where the source allows (cp_async_part).
#pragma unroll 1
      for (; r < kend; r += RS, d += RS * bp, src += int64_t(RS) * nb) {
        if (r >= k) *reinterpret_cast<VecT<T, V>*>(d) = VecT<T, V>{};
        else if (j < wc) cp_async_part<T, V>(d, src, wc - j);
      }
    }
    if (H && vecB && wc == BN) {
      // Whole rows (every column inside nb, 16-byte aligned): the copies with no tests, then the zero
      // rows to kend (the general loop below spent ~22 instructions a copy on its tests).
      for (; r < k; r += RS, d += RS * bp, src += int64_t(RS) * nb) cp_async16(d, src);
      for (; r < kend; r += RS, d += RS * bp) *reinterpret_cast<VecT<T, V>*>(d) = VecT<T, V>{};
    }
    for (; r < kend; r += RS, d += RS * bp, src += int64_t(RS) * nb) {
      if (r >= k) *reinterpret_cast<VecT<T, V>*>(d) = VecT<T, V>{};
      else if (j < wc) {
        if (vecB) cp_async16(d, src);
        else
          for (int x = 0; x < V && j + x < wc; ++x) d[x] = src[x];
      }
    }
  } else {
    // TPC threads a column of the tile, a 16-byte vector of its rows each.
    constexpr int TPC = 16;
    if (flat && !vecB) {
      // Misaligned columns (k % 8 != 0, or B_i starting off 16 bytes): the tile's columns are one run of wc k values,
      // copied flat into the staging's place and unpacked into the padded columns after the wait (below).
      fl = flat_issue16<kThreads>(reinterpret_cast<uint16_t*>(slab_smem + g.w_off), reinterpret_cast<const uint16_t*>(Bi + int64_t(j0) * k), wc * k, tid);
    } else
    for (int j = tid / TPC; j < wc; j += kThreads / TPC) {
      T* d = Bs + j * bp;
      const T* src = Bi + int64_t(j0 + j) * k;
      for (int r = (tid % TPC) * V; r < kend; r += TPC * V) {
        if (vecB && r + V <= k) {
          cp_async16(d + r, src + r);
        } else {
#pragma unroll
          for (int x = 0; x < V; ++x) d[r + x] = r + x < k ? src[r + x] : T(0);
        }
      }
    }
  }
  cp_async_commit();

  // 2. A_i dense: the first nonzeros' loads go out before the tile is zeroed (their latency overlaps the
  // zeroing and the barrier), then the scatter.
  {
    constexpr int PF = 4;
    const int q0 = job.q0, q1 = job.q1;
    T v[PF];
    unsigned pos[PF];
#pragma unroll
    for (int i = 0; i < PF; ++i) {
      const int q = q0 + tid + i * kThreads;
      if (q < q1) { v[i] = __ldg(val + q); pos[i] = __ldg(apos + q); }
    }
    const int n16 = (m + 16 * MS - 1) / (16 * MS) * (16 * MS) * ap / V;  // this job's strips (whole pairs), whole rows of the pitch
    for (int e = tid; e < n16; e += kThreads) reinterpret_cast<VecT<T, V>*>(As)[e] = VecT<T, V>{};
    __syncthreads();
#pragma unroll
    for (int i = 0; i < PF; ++i)
      if (q0 + tid + i * kThreads < q1) As[pos[i]] = v[i];
    for (int q = q0 + tid + PF * kThreads; q < q1; q += kThreads) As[__ldg(apos + q)] = __ldg(val + q);
  }
  if (flat && !vecB) flat_tail16(reinterpret_cast<uint16_t*>(slab_smem + g.w_off), fl);
  cp_async_wait<0>();
  __syncthreads();
  if (flat && !vecB) {  // the run into the tile's padded columns (rows); the staging's place is free again after the barrier
    if constexpr (row)  // k lines of nb values, each zero-padded to a whole vector
      flat_unpack16<kThreads, BN / 8>(reinterpret_cast<uint16_t*>(Bs), bp, reinterpret_cast<const uint16_t*>(slab_smem + g.w_off),
                                      flat_delta16(reinterpret_cast<const uint16_t*>(Bi)), nb, (nb + 7) & ~7, k, tid);
    else
      flat_unpack16<kThreads, 16>(reinterpret_cast<uint16_t*>(Bs), bp, reinterpret_cast<const uint16_t*>(slab_smem + g.w_off),
                                  flat_delta16(reinterpret_cast<const uint16_t*>(Bi + int64_t(j0) * k)), k, kend, wc, tid);
    __syncthreads();
  }

  // 3. Pairs (strip, column group) of the slab, a warp's in turn.
  const int warp = tid >> 5, lane = tid & 31, gq = lane >> 2, tq = lane & 3;
  const int S = (m + 16 * MS - 1) / (16 * MS), G = (wc + kSlabWN - 1) / kSlabWN;  // S: pairs of MS strips
  unsigned a_lane = 0, b_lane = 0;  // kPair: the lane's parts of its fragment addresses (TileMma16::a_lane)
  if constexpr (Op::kPair) a_lane = Op::a_lane(ap, lane), b_lane = Op::template b_lane<row>(bp, lane);
  const bool vecC2 = nb % 2 == 0;   // row-major f32 / f64: a lane's two columns are one aligned pair
  const bool vecC = row ? nb % V == 0 : mx % V == 0 && (Cc - C) % V == 0;
  // Pair p is (strips p / G, group p % G); a warp's next pair is W on, its strips and group
  // stepped without a division.
  const int ds = W / G, dc = W % G;
  int s = warp / G, cg = warp % G;
  // Made once, not per pair (ncu, f16 d64 nB 256: ~230 instructions a pair besides its k steps, most
  // of them these addresses and bounds made again): the fragment bases, the k steps, the lane's C row.
  const unsigned a_at0 = Op::kPair ? smem_addr(As) + a_lane : 0u, b_at0 = Op::kPair ? smem_addr(Bs) + b_lane : 0u;
  const int nks = kend / Op::K;  // (f32: the loop on kk, as before; see H)
  for (int p = warp; p < S * G; p += W, s += ds, cg += dc) {
    if (cg >= G) cg -= G, ++s;
    const int nt = min(NT, (wc - cg * kSlabWN + 7) / 8);  // n8 tiles with columns below nb (uniform over the warp)
    const T* Aw = As + s * MS * 16 * ap;
    const T* Bw = row ? Bs + cg * kSlabWN : Bs + cg * kSlabWN * bp;
    A_t acc[MS][NT][4], sm[MS][NT][4];  // sm: f32's small terms (TileMma<float>::kSmallAcc)
#pragma unroll
    for (int u = 0; u < MS; ++u)
#pragma unroll
      for (int j = 0; j < NT; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) acc[u][j][e] = sm[u][j][e] = A_t(0);
    const unsigned a_at = a_at0 + unsigned(s * MS * 16 * ap * int(sizeof(T))),
                   b_at = b_at0 + unsigned((row ? cg * kSlabWN : cg * kSlabWN * bp) * int(sizeof(T)));
    // One k step of the pair's n8 tiles, their count a compile-time constant (as in batched-tile: behind a
    // runtime bound each tile's loads and products waited on the last tile's).
    auto steps = [&](auto tiles) {
      constexpr int n = decltype(tiles)::value;
#pragma unroll 2
      for (int i = 0, kk = 0; H ? i < nks : kk < kend; ++i, kk += Op::K) {
        typename Op::A a[MS];
        if constexpr (Op::kPair) {
#pragma unroll
          for (int u = 0; u < MS; ++u) Op::load_a(a_at + unsigned(u * 16 * ap * int(sizeof(T))) + 2u * kk, a[u]);
#pragma unroll
          for (int j = 0; j < n; j += 2) {
            typename Op::B b0, b1;
            Op::template load_b2<row>(b_at + Op::template b_at<row>(bp, j * 8, kk), b0, b1);
#pragma unroll
            for (int u = 0; u < MS; ++u) {
              Op::mma(acc[u][j], a[u], b0);
              if (j + 1 < n) Op::mma(acc[u][j + 1], a[u], b1);
            }
          }
        } else {
#pragma unroll
          for (int u = 0; u < MS; ++u) Op::load_a(Aw + u * 16 * ap + kk, ap, gq, tq, a[u]);
#pragma unroll
          for (int j = 0; j < n; ++j) {
            typename Op::B b;
            Op::template load_b<row>(row ? Bw + kk * bp + j * 8 : Bw + j * 8 * bp + kk, bp, gq, tq, b);
#pragma unroll
            for (int u = 0; u < MS; ++u) {
              if constexpr (Op::kSmallAcc) Op::mma(acc[u][j], sm[u][j], a[u], b);
              else Op::mma(acc[u][j], a[u], b);
            }
          }
        }
      }
    };
    switch (nt) {
      case 1: steps(std::integral_constant<int, 1>{}); break;
      case 2: steps(std::integral_constant<int, 2>{}); break;
      case 3: steps(std::integral_constant<int, 3>{}); break;
      default: steps(std::integral_constant<int, 4>{});
    }
    if constexpr (Op::kSmallAcc) {
#pragma unroll
      for (int u = 0; u < MS; ++u)
#pragma unroll
        for (int j = 0; j < NT; ++j)
#pragma unroll
          for (int e = 0; e < 4; ++e) acc[u][j][e] += sm[u][j][e];
    }
    const int cw = cg * kSlabWN;  // the pair's first column within the tile
#pragma unroll
    for (int u = 0; u < MS; ++u) {
      const int st = s * MS + u;  // the strip
      if (st * 16 >= m) break;    // a pair's padding strip (uniform over the warp)
      const A_t (&ac)[NT][4] = acc[u];
      T* const Crow = row && H ? Ci + int64_t(st * 16 + gq) * nb + j0 + cw : nullptr;  // row-major: the lane's row g of the strip
      if constexpr (flat) {
        if (cflat) {  // into the block's C run (+ its offset): row r of the job at r nb, column c of the tile at c m
          T* Ct = reinterpret_cast<T*>(slab_smem + g.w_off) + flat_delta16(reinterpret_cast<const uint16_t*>(Crun));
#pragma unroll
          for (int j = 0; j < NT; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
              const int r = st * 16 + gq + (e >> 1) * 8, c = cw + j * 8 + 2 * tq + (e & 1);
              if (r < m && c < wc) Ct[row ? r * nb + c : c * m + r] = narrow<T>(ac[j][e]);
            }
          continue;
        }
      }
      if constexpr (sizeof(T) == 2 && row) {
        // 16-bit row-major: after a quad transpose lane tq holds n8 tile tq of its rows, 8 columns: one
        // 16-byte store (batched-tile's path).
        const int c = cw + 8 * tq;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          uint32_t w[NT];
#pragma unroll
          for (int j = 0; j < NT; ++j) w[j] = pack16<T>(ac[j][2 * h], ac[j][2 * h + 1]);
          quad_transpose(w, tq);
          const int r = st * 16 + gq + 8 * h;
          if (r >= m || tq >= nt) continue;
          store_row8<T, MIS>(Crow + (h ? int64_t(8) * nb : 0) + 8 * tq, w, vecC, c, wc);
        }
      } else if constexpr (sizeof(T) == 2) {
        // 16-bit column-major: through the warp's staging (a column's 16 rows, 32 bytes), then two lanes a
        // column (rows 0-7 and 8-15), 16 columns a store: each store's lanes fill whole 32-byte sectors (a
        // lane a column, rows 0-7 then 8-15, wrote half sectors: twice the store requests at L2, ncu).
        T* Ws = reinterpret_cast<T*>(slab_smem + g.w_off) + warp * kSlabWN * SlabGeom<T>::wpitch;
#pragma unroll
        for (int j = 0; j < NT; ++j)
#pragma unroll
          for (int e = 0; e < 4; ++e) Ws[(j * 8 + 2 * tq + (e & 1)) * SlabGeom<T>::wpitch + gq + (e >> 1) * 8] = narrow<T>(ac[j][e]);
        __syncwarp();
        const int rows = min(16, m - st * 16), h8 = (lane & 1) * 8;
#pragma unroll
        for (int half = 0; half < 2; ++half) {
          const int cl = half * 16 + (lane >> 1), c = cw + cl;
          if (c >= wc) continue;
          const T* src = Ws + cl * SlabGeom<T>::wpitch + h8;
          T* dst = Cc + int64_t(j0 + c) * mx + st * 16 + h8;
          if (vecC && rows == 16) *reinterpret_cast<uint4*>(dst) = *reinterpret_cast<const uint4*>(src);
          else if constexpr (MIS) {
            if (h8 < rows) store_words16<T>(dst, *reinterpret_cast<const uint32_t(*)[4]>(src), min(8, rows - h8));
          } else
            for (int x = 0; x < 8 && h8 + x < rows; ++x) dst[x] = src[x];
        }
        __syncwarp();  // the next pair writes the staging again
      } else {
        // f32 / f64: C straight from the accumulators (a lane: two adjacent columns of rows g and g + 8; a
        // quad's store covers 8 columns of a row (row-major), a warp's 8 consecutive rows of a column).
#pragma unroll
        for (int j = 0; j < NT; ++j) {
          if (j >= nt) break;
          const int c = cw + j * 8 + 2 * tq;
#pragma unroll
          for (int h = 0; h < 2; ++h) {
            const int r = st * 16 + gq + 8 * h;
            if (r >= m || c >= wc) continue;
            const T v0 = narrow<T>(ac[j][2 * h]), v1 = narrow<T>(ac[j][2 * h + 1]);
            if (row) {
              T* dst = H ? Crow + (h ? int64_t(8) * nb : 0) + j * 8 + 2 * tq : Ci + int64_t(r) * nb + j0 + c;
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
              T* dst = Cc + int64_t(j0 + c) * mx + r;
              dst[0] = v0;
              if (c + 1 < wc) dst[mx] = v1;
            }
          }
        }
      }
    }
  }
  if constexpr (flat) {
    if (cflat) {
      __syncthreads();
      flat_store16<kThreads>(Crun, reinterpret_cast<const T*>(slab_smem + g.w_off), wc * m, tid);
    }
  }
#endif
}

}  // namespace spb
