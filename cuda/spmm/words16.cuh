// Lines of 16-bit values off 16-byte alignment copied into shared memory a 4-byte word a lane, consecutive lanes on
// consecutive words of a line, so that a warp's copies are runs of each line's sectors. batched-slab's MIS 2 kernels
// (slab_kernel) use it for row-major B whose nb % 4 != 0. (The motive: a 16-byte vector a thread in 4-byte copies, 16
// bytes apart across the warp, used 5.4 bytes of each 32-byte sector a request and fetched every sector four times
// through L1, ncu on batched-tile's MIS kernel. In batched-tile's kernels, whose copies run once a 32-row chunk inside
// the tile loop, and for column-major B it cost more than it saved: docs/spmm-notes.md "words16".)
// flat_issue16 / flat_unpack16: column-major B's column tile as one run (batched-slab's column-major MIS kernels);
// flat_store16: C's column tile back as one run.
#pragma once
#include <cstdint>
#include "async_copy.cuh"
#include "common.cuh"

namespace spb {

// Line l of dst (pitch bp values; lines 4-byte aligned) gets the len values at src + l ld and zeros past len,
// fill (<= 2 WORDS) values in all; lines from nsrc on are zeros; lines from nl (<= LINES) on are not written.
// G = min(WORDS, 32) lanes a line, a warp's lines two apart (an odd ld alternates the parity of the lines'
// starts: this keeps a warp's lines on one path). A line that starts at an even element: 4-byte cp.async; at
// an odd one (no cp.async size keeps a 2-byte shift): two plain word loads and a byte permute, a thread's
// loads of up to 4 words issued before its first store into shared memory, so that it waits once for them.
// The caller commits and waits as for its other cp.async copies.
template <int LINES, int WORDS, int THREADS>
__device__ __forceinline__ void copy_lines16(uint16_t* dst, int bp, const uint16_t* src, int64_t ld, int nl, int nsrc, int fill, int len) {
  constexpr int G = WORDS < 32 ? WORDS : 32, WL = WORDS / G, S = 32 / G, LP = THREADS / G, NU = LINES / LP * WL;
  static_assert(WORDS % G == 0 && (G == 8 || G == 16 || G == 32) && LINES % LP == 0 && LP % (2 * S) == 0, "whole passes");
  constexpr int NB = NU < 4 ? NU : 4;
  static_assert(NU % NB == 0, "whole batches");
  // The thread's place, opaque to the compiler, so that each call makes its units' offsets anew: hoisted out of
  // the caller's loop they held more registers (batched-slab's 40-register kernels spilled 20-136 bytes; ptxas).
  int t = int(threadIdx.x);
  asm volatile("" : "+r"(t));
  const int wl = t % G, slot = t / G;
  const int l0 = slot / (2 * S) * (2 * S) + (slot / S) % 2 + 2 * (slot % S);  // S = 1: slot
  auto at = [&](int i, int& l, int& x) { l = l0 + (i / WL) * LP, x = 2 * (wl + (i % WL) * G); };
#pragma unroll 1
  for (int b = 0; b < NU; b += NB) {
    uint32_t lo[NB], hi[NB];
    unsigned mode = 0;  // 2 bits a unit: 1 stores lo, 2 the permute of lo and hi
#pragma unroll
    for (int u = 0; u < NB; ++u) {
      int l, x;
      at(b + u, l, x);
      if (l >= nl || x >= fill) continue;
      uint32_t* d = reinterpret_cast<uint32_t*>(dst + l * bp + x);
      if (l >= nsrc || x >= len) {
        *d = 0u;
        continue;
      }
      const uint16_t* p = src + (int(l * ld) + x);  // (a B_i's lines: 32-bit offsets)
      const bool odd = reinterpret_cast<uintptr_t>(p) & 2u;
      if (x + 1 >= len) {  // the line's last value, alone (the word's upper half zero)
        lo[u] = __ldg(p);
        mode |= 1u << (2 * u);
      } else if (!odd) {
        cp_async_small<4>(d, p);
      } else {  // values x and x + 1: the upper half of the word before p, the lower half of the word after
        const uint32_t* q = reinterpret_cast<const uint32_t*>(p - 1);
        lo[u] = __ldg(q);
        hi[u] = x + 2 < len ? __ldg(q + 1) : uint32_t(__ldg(p + 1));  // (not past the line: it may end B)
        mode |= 2u << (2 * u);
      }
    }
#pragma unroll
    for (int u = 0; u < NB; ++u) {
      const unsigned md = (mode >> (2 * u)) & 3u;
      if (!md) continue;
      int l, x;
      at(b + u, l, x);
      *reinterpret_cast<uint32_t*>(dst + l * bp + x) = md == 1 ? lo[u] : __byte_perm(lo[u], hi[u], 0x5432);
    }
  }
}

// A run of n values at src (any 2-byte alignment) copied flat into F (16-byte aligned) by 16-byte cp.async from the
// 16-byte boundary at or below src: F[delta + i] = src[i], delta (flat_delta16) the values before src in its 16 bytes. A column tile
// of a column-major B_i is one such run (columns j0 .. j0 + wc - 1, k values each), so whatever k is, every copy but
// the last few values is a whole 16-byte one (per column, a k that is not a multiple of 8 left most columns to 4-byte
// copies or, at odd starts, plain loads). The values past the last whole vector (< 8) are plain loads, returned in
// tail for flat_tail16 to store after the caller's other loads are issued, so that no thread waits on them here.
struct Flat16 {
  int tail_at;  // F's index of this thread's tail value, -1 for none
  uint16_t tail;
};
__device__ __forceinline__ int flat_delta16(const uint16_t* src) { return int((reinterpret_cast<uintptr_t>(src) & 15u) >> 1); }
template <int THREADS>
__device__ __forceinline__ Flat16 flat_issue16(uint16_t* F, const uint16_t* src, int n, int tid) {
  Flat16 f;
  const int delta = flat_delta16(src);
  const uint16_t* base = src - delta;  // inside src's allocation (its 16-byte block)
  const int full = (delta + n) >> 3, t0 = 8 * full;
  for (int v = tid; v < full; v += THREADS) cp_async16(F + 8 * v, base + 8 * v);
  f.tail_at = t0 + tid < delta + n ? t0 + tid : -1;
  f.tail = f.tail_at >= 0 ? __ldg(base + f.tail_at) : uint16_t(0);
  return f;
}
__device__ __forceinline__ void flat_tail16(uint16_t* F, const Flat16& f) {
  if (f.tail_at >= 0) F[f.tail_at] = f.tail;
}
// After the run has landed (the caller's wait and barrier): column j of the tile (k values at F + delta + j k) to
// dst + j bp (bp even, dst 16-byte aligned), zeros from k to kend (a multiple of 8), columns up to wc. TPC threads a
// column, a 16-byte vector each: five word loads and, at an odd start, four byte permutes. F must have 16 values of
// slack past the run (read, never used).
template <int THREADS, int TPC>
__device__ __forceinline__ void flat_unpack16(uint16_t* dst, int bp, const uint16_t* F, int delta, int k, int kend, int wc, int tid) {
  const uint32_t* Fw = reinterpret_cast<const uint32_t*>(F);
  for (int j = tid / TPC; j < wc; j += THREADS / TPC)
    for (int r = (tid % TPC) * 8; r < kend; r += TPC * 8) {
      const int f = delta + j * k + r;
      const uint32_t* w = Fw + (f >> 1);
      uint32_t x[5], o[4];
#pragma unroll
      for (int i = 0; i < 5; ++i) x[i] = w[i];
#pragma unroll
      for (int i = 0; i < 4; ++i) o[i] = f & 1 ? __byte_perm(x[i], x[i + 1], 0x5432) : x[i];
      const int valid = k - r;
      if (valid < 8) {
#pragma unroll
        for (int i = 0; i < 4; ++i) o[i] = 2 * i >= valid ? 0u : 2 * i + 1 >= valid ? o[i] & 0xFFFFu : o[i];
      }
      uint4 v;
      v.x = o[0], v.y = o[1], v.z = o[2], v.w = o[3];
      *reinterpret_cast<uint4*>(dst + j * bp + r) = v;
    }
}

// The run of n values that F (16-byte aligned) holds from F[delta] on, delta = flat_delta16(dst), stored to dst: a
// 16-byte store (evict-first, store_c) for each vector of dst's 16-byte blocks that lies inside the run, the first and
// last blocks' values one at a time. A column tile of a column-major C_i (all its rows) is one such run.
template <int THREADS, typename T>
__device__ __forceinline__ void flat_store16(T* dst, const T* F, int n, int tid) {
  static_assert(sizeof(T) == 2, "16-bit values");
  const int delta = flat_delta16(reinterpret_cast<const uint16_t*>(dst)), end = delta + n;
  T* base = dst - delta;
  for (int v = tid; v < (end + 7) >> 3; v += THREADS) {
    const int lo = 8 * v;
    if (lo >= delta && lo + 8 <= end) store_c(reinterpret_cast<uint4*>(base + lo), *reinterpret_cast<const uint4*>(F + lo));
    else
      for (int x = max(lo, delta); x < min(lo + 8, end); ++x) base[x] = F[x];
  }
}

}  // namespace spb
