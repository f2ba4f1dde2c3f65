// batched-col's streamed path (col_stream_kernel): column-major B_i and C_i of a uniform batch, rows of at
// most 8 nonzeros (ELL slots), where B and C are the bytes. In column-major storage columns j0 .. j0 + J of
// B_i are one contiguous run of J * k values, and of C_i one of J * m; col_kernel moves them a few columns a
// block at a time behind block barriers (16-bit f16 d64, 3 a row, nB 256: 1.8 TB/s where a row-major
// streaming kernel reaches 3.2 TB/s on the same bytes; docs/spmm-notes.md). Here every warp works alone:
// it owns a strip of 32 R rows (several whole small matrices; or one or two such strips of a taller one, SS, so
// that A_i of up to 64 R rows read each chunk of B_i once; or a slice of a still taller one) and a range of
// columns, keeps its rows of A in registers, and streams its chunks of B through a ring of kColStreamStages
// buffers of its own with cp.async (no block barrier, a __syncwarp a chunk), so that a warp has three
// chunks in flight while it multiplies one; lanes on rows, so a warp's store of a column of C is 32 R
// consecutive values, two rows a lane (R = 2, every m even) as one 4- or 8-byte store.
#pragma once
#include "common.cuh"
#include "async_copy.cuh"

namespace spb {

constexpr int kColStreamWarps = 4;   // warps a block (each works alone)
constexpr int kColStreamStages = 4;  // chunk buffers a warp's ring holds
constexpr int kColStreamChunkBytes = 2048;  // a chunk's bytes of B (J columns of the strip's matrices)

// The launch of a uniform batch (batch matrices of m x k, nb columns): strips of rows, column parts, chunks.
struct ColStreamPlan {
  int R = 1;        // rows a lane
  int SS = 1;       // strips of 32 R rows a warp computes from each chunk (2 where m > 32 R: B_i read once up to 64 R rows)
  int mpw = 1;      // whole matrices a strip (m <= 32 R), else 1
  int spm = 1;      // items a matrix (m > 32 R SS), else 1
  int nstrips = 0;  // strips of the batch
  int J = 1;        // columns a chunk
  int cap = 0;      // values a matrix's slot of a chunk buffer holds: J k and up to 2 V - 1 of 16-byte alignment
  int stage = 0;    // values a chunk buffer holds (mpw slots)
  int parts = 1;    // column ranges a strip is split into (pcols columns each, the last fewer)
  int pcols = 0;
  int nitems = 0;   // strips x parts: a warp's unit of work
  size_t smem = 0;  // shared memory a block
};

// R: 2 where m is even (two adjacent rows a lane never straddle two matrices); warp_slots: the warps the device
// holds at once for this kernel (occupancy x SMs x kColStreamWarps), which the column parts fill where the
// strips alone would not; chunk_bytes: B's bytes a chunk aims at (the host emulation's small ones make many
// chunks of one column or a few).
template <typename T>
inline ColStreamPlan col_stream_plan(int batch, int m, int k, int nb, int R, int64_t warp_slots, int chunk_bytes = kColStreamChunkBytes) {
  ColStreamPlan p;
  constexpr int V = 16 / sizeof(T);
  p.R = R;
  if (m <= 32 * R) {
    p.mpw = 32 * R / m;
    p.nstrips = (batch + p.mpw - 1) / p.mpw;
  } else {
    p.SS = 2;
    p.spm = (m + 32 * R * p.SS - 1) / (32 * R * p.SS);
    p.nstrips = batch * p.spm;
  }
  const int colb = p.mpw * k * int(sizeof(T));
  p.J = std::max(1, std::min(nb, chunk_bytes / std::max(colb, 1)));
  p.cap = (p.J * k + 2 * V + V - 1) / V * V;
  p.stage = p.mpw * p.cap;
  p.smem = size_t(kColStreamWarps) * kColStreamStages * p.stage * sizeof(T);
  const int chunks = (nb + p.J - 1) / p.J;
  p.parts = int(std::max<int64_t>(1, std::min<int64_t>(chunks, warp_slots / std::max(p.nstrips, 1))));
  p.pcols = (chunks + p.parts - 1) / p.parts * p.J;
  p.parts = (nb + p.pcols - 1) / p.pcols;
  p.nitems = p.nstrips * p.parts;
  return p;
}

// Two rows' values of one column of C as one store (R = 2; the element offset is even: m even); 16-bit or f32.
template <typename T>
__device__ __forceinline__ void store_c_pair(T* p, acc_t<T> a0, acc_t<T> a1) {
  if constexpr (sizeof(T) == 2) store_c(reinterpret_cast<uint32_t*>(p), pack16<T>(a0, a1));
  else store_c(reinterpret_cast<float2*>(p), make_float2(a0, a1));
}

// cols / vals: A as K ELL slots a row (local columns, -1 where a row has fewer); B, C: the batch's column-major
// blocks (B_i at t k nb, C_i at t m nb); b_total: B's values (the last 16-byte block of B may be partial).
template <typename T, int K, int R>
__global__ void __launch_bounds__(32 * kColStreamWarps) col_stream_kernel(const int* __restrict__ cols, const T* __restrict__ vals,
                                                                       const T* __restrict__ B, T* __restrict__ C, int nb, int m, int k,
                                                                       int batch, ColStreamPlan p, int64_t b_total) {
  static_assert(R == 1 || R == 2, "one or two rows a lane");
  static_assert(sizeof(T) <= 4, "16-bit and f32 values (f64 gained nothing: docs/spmm-notes.md)");
  constexpr int U = 2 * R;  // rows a lane, of two strips (p.SS): row u is r + (u / R) 32 R + u % R
  constexpr int V = 16 / sizeof(T);
  constexpr int S = kColStreamStages;
  using A = acc_t<T>;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  const int lane = threadIdx.x & 31, wib = threadIdx.x >> 5;
  T* ring = reinterpret_cast<T*>(smem_raw) + size_t(wib) * S * p.stage;
  const int wpb = blockDim.x >> 5;  // kColStreamWarps (the host emulation runs one-warp blocks)
  const int nwarps = gridDim.x * wpb;
  for (int item = blockIdx.x * wpb + wib; item < p.nitems; item += nwarps) {
    const int strip = item / p.parts, part = item - strip * p.parts;
    // The strip's matrices ta .. ta + tn - 1; this lane's matrix t and first row r in it.
    int ta, tn, t, r;
    if (p.mpw > 1) {
      ta = strip * p.mpw;
      tn = min(p.mpw, batch - ta);
      t = ta + lane * R / m;
      r = lane * R - (t - ta) * m;
    } else {
      ta = strip / p.spm;
      tn = 1;
      t = ta;
      r = (strip - ta * p.spm) * 32 * R * p.SS + lane * R;
    }
    const bool live[2] = {t < ta + tn && r < m, p.SS == 2 && r + 32 * R < m};
    const int c0 = part * p.pcols, c1 = min(nb, c0 + p.pcols);
    const int nq = (c1 - c0 + p.J - 1) / p.J;
    // Chunk q (columns c0 + q J ..) of the strip's matrices into ring buffer q % S: each matrix's run of jw k
    // values as the 16-byte blocks that cover it (B's base is aligned, so a block never starts before B; the
    // run sits at its offset within its first block), a block past B's end value by value. One commit group a
    // chunk, empty past the last, so that the waits below count alike.
    auto issue = [&](int q) {
      if (q < nq) {
        T* buf = ring + (q % S) * p.stage;
        const int j0 = c0 + q * p.J, jw = min(p.J, c1 - j0);
        for (int x = 0; x < tn; ++x) {
          const int64_t start = int64_t(ta + x) * k * nb + int64_t(j0) * k;
          const int mis = int(start % V);
          const int64_t a0 = start - mis;
          const int nblk = (mis + jw * k + V - 1) / V;
          T* dst = buf + x * p.cap;
          const T* src = B + a0;
          if (a0 + int64_t(nblk) * V <= b_total) {
            for (int b = lane; b < nblk; b += 32) cp_async16(dst + b * V, src + b * V);
          } else {
            for (int b = lane; b < nblk; b += 32) {
              const int64_t e = a0 + int64_t(b) * V;
              if (e + V <= b_total) cp_async16(dst + b * V, src + b * V);
              else
                for (int y = 0; e + y < b_total; ++y) dst[b * V + y] = B[e + y];
            }
          }
        }
      }
      cp_async_commit();
    };
#pragma unroll
    for (int q = 0; q < S - 1; ++q) issue(q);
    // A's rows, while the first chunks are in flight.
    int c[U][K];
    A a[U][K];
#pragma unroll
    for (int u = 0; u < U; ++u)
#pragma unroll
      for (int s = 0; s < K; ++s) {
        const int64_t row = int64_t(t) * m + r + (u / R) * 32 * R + u % R;
        c[u][s] = live[u / R] ? __ldg(cols + row * K + s) : -1;
        a[u][s] = live[u / R] ? widen(__ldg(vals + row * K + s)) : A(0);
        // An empty slot (-1) reads column 0 with value 0: no test in the products (B is the driver's seeded
        // values, all finite, so 0 x B adds exactly 0).
        if (c[u][s] < 0) c[u][s] = 0, a[u][s] = A(0);
      }
    T* ci = C + int64_t(t) * m * nb + r;
    for (int q = 0; q < nq; ++q) {
      __syncwarp();  // every lane is done with chunk q - 1, whose buffer chunk q + S - 1 takes
      issue(q + S - 1);
      cp_async_wait<S - 1>();  // this lane's copies of chunk q have landed
      __syncwarp();            // and every lane's
      if (live[0]) {
        const int j0 = c0 + q * p.J, jw = min(p.J, c1 - j0);
        const T* bl = ring + (q % S) * p.stage + (t - ta) * p.cap + int((int64_t(t) * k * nb + int64_t(j0) * k) % V);
        T* cj = ci + int64_t(j0) * m;
        // A pointer a slot, stepped k values a column: a load, a conversion and a multiply-add a slot and column.
        // NS strips (p.SS, one loop each, so that one strip costs no second strip's products or registers).
        auto products = [&](auto ns) {
          constexpr int NS = decltype(ns)::value, NU = NS * R;
          const T* bp[NU][K];
#pragma unroll
          for (int u = 0; u < NU; ++u)
#pragma unroll
            for (int s = 0; s < K; ++s) bp[u][s] = bl + c[u][s];
#pragma unroll 2
          for (int h = 0; h < jw; ++h) {
            A acc[NU];
#pragma unroll
            for (int u = 0; u < NU; ++u) {
              acc[u] = A(0);
#pragma unroll
              for (int s = 0; s < K; ++s) {
                acc[u] += a[u][s] * widen(*bp[u][s]);
                bp[u][s] += k;
              }
            }
#pragma unroll
            for (int x = 0; x < NS; ++x) {
              if (x > 0 && !live[x]) continue;  // (the second strip's rows past m)
              if constexpr (R == 2) store_c_pair<T>(cj + x * 32 * R, acc[x * R], acc[x * R + 1]);
              else store_c(cj + x * 32 * R, narrow<T>(acc[x]));
            }
            cj += m;
          }
        };
        if (p.SS == 2) products(std::integral_constant<int, 2>());
        else products(std::integral_constant<int, 1>());
      }
    }
    __syncwarp();  // the next item's first chunks reuse the ring
  }
}

}  // namespace spb
