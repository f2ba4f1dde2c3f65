// batched-slab's persistent kernel (slab_pipe_kernel): 16-bit row-major batches on sm_90, the same split of the work
// as slab_kernel (all rows of A_i times a column tile of B_i, so B_i is read once), but one block an SM that walks a
// contiguous run of (matrix, 64-column tile) items, with its warps specialised:
//   * one B warp issues each item's B tile into a ring of `ns` stages with cp.async (zero-filled past k_i and nb),
//     as many items ahead as the stages allow;
//   * A warps (kPipeAW) copy each matrix's nonzeros (places and values) into a staging with cp.async one matrix
//     ahead, and scatter them from there into one of `na` dense A buffers (zeroed first) while the previous matrix is
//     multiplied;
//   * consumer warps (kPipeCW) take the item's (16-row strip, 32-column group) pairs, the k loop of tensor-core
//     steps and the store of C from the accumulators (quad transpose, 16-byte stores), as slab_kernel's pairs.
// Stages and buffers hand over through mbarriers (full: the producers' copies landed / their stores are done; empty:
// every consumer warp is past it), so no block-wide barrier after the start: a consumer warp goes on to the next
// item as soon as its tile is in.
// Why: slab_kernel loads its whole B tile, then multiplies, then stores; only other blocks on the SM overlap
// those phases, and on dense 16-bit A_i (m, k ~ 176-256) the tiles leave 1-2 blocks an SM. There cuBLAS's kernel
// (a persistent block an SM streaming B through 7 stages) ran 11.1 us against slab's 21.2 and batched-tile's 18.3
// (H200, f16 batch 176 of d176, nb 128; docs/spmm-notes.md, "cuBLAS's kernel for the class").
#pragma once
#include <cstdint>
#include "slab.cuh"

namespace spb {

constexpr int kPipeBN = 64;                 // columns of an item's B tile (two 32-column groups)
constexpr int kPipeAW = 3;                  // A warps a block (and one B warp; CW consumer warps, the kernel's)
__host__ __device__ constexpr int pipe_warps(int cw) { return cw + kPipeAW + 1; }
constexpr int kPipeMaxStages = 8;           // B stages at most (the barriers' 256 bytes hold 2 x (8 + 8))

// Shared memory of one launch: the mbarriers (256 bytes), na A buffers (mp x apitch, as SlabGeom's whole A_i: the
// host's apos), the staging of one matrix's nonzeros (places, then values: qv 16-byte vectors each, the most a job
// spans), ns B stages (kp rows x bpitch).
template <typename T>
struct PipeGeom {
  int mp, kp, apitch, bpitch;
  size_t a_bytes, q_bytes, b_bytes, a_off, q_off, b_off, bytes;
  __host__ __device__ PipeGeom(int max_m, int max_k, int qv, int na, int ns) {
    mp = ((max_m < 1 ? 1 : max_m) + 15) / 16 * 16;
    kp = ((max_k < 1 ? 1 : max_k) + 15) / 16 * 16;
    apitch = kp + 8;       // as SlabGeom<16-bit>: fragment loads on distinct banks, rows on 16 bytes
    bpitch = kPipeBN + 8;  // 144 bytes a row
    auto up = [](size_t b) { return (b + 127) / 128 * 128; };
    a_bytes = up(size_t(mp) * apitch * sizeof(T));
    q_bytes = up(size_t(qv < 1 ? 1 : qv) * 16);
    b_bytes = up(size_t(kp) * bpitch * sizeof(T));
    a_off = 256;
    q_off = a_off + size_t(na) * a_bytes;
    b_off = q_off + 2 * q_bytes;
    bytes = b_off + size_t(ns) * b_bytes;
  }
};
// 16-byte vectors of a job's nonzeros q0 .. q1 (2-byte places or values) from the one holding q0.
__host__ __device__ inline int pipe_qvecs(int q0, int q1) { return q1 > q0 ? (q1 + 7) / 8 - q0 / 8 : 0; }

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}
// Arrive (release: this thread's shared-memory writes and reads before it are ordered before the phase completes).
__device__ __forceinline__ void mbar_arrive(unsigned bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}
// Wait for the phase of the given parity to complete (acquire).
__device__ __forceinline__ void mbar_wait(unsigned bar, unsigned parity) {
  asm volatile(
      "{\n .reg .pred p;\n WAIT:\n mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n @!p bra WAIT;\n}\n" ::"r"(bar), "r"(parity)
      : "memory");
}
// An arrival on bar once this thread's cp.async copies so far have landed (.noinc: counted in the barrier's init).
__device__ __forceinline__ void cp_async_arrive(unsigned bar) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];\n" ::"r"(bar) : "memory");
}
// 16 bytes global -> shared, of which the first n (0 .. 16) are read and the rest zero-filled.
__device__ __forceinline__ void cp_async16_zfill(unsigned dst, const void* src, int n) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(n) : "memory");
}
#endif

// A block's walk over its items, (job, column tile) stepped without divisions: a job's record loaded once, the next
// job's load issued when this one begins (a load an item sat on each warp's path to its tile).
struct PipeWalk {
  const SlabJob* jobs;
  int nct, jb, ct;
  long long it1;
  SlabJob cur, nxt;
  __device__ PipeWalk(const SlabJob* j, int n, long long it0, long long end) : jobs(j), nct(n), it1(end) {
    jb = int(it0 / nct), ct = int(it0 - (long long)jb * nct);
    if (it0 < it1) cur = jobs[jb];
    if (more()) nxt = jobs[jb + 1];
  }
  __device__ bool more() const { return (long long)(jb + 1) * nct < it1; }  // the block's items reach the next job
  // The next item; true where it begins a job.
  __device__ bool step() {
    if (++ct < nct) return false;
    ct = 0, ++jb, cur = nxt;
    if (more()) nxt = jobs[jb + 1];
    return true;
  }
};

// Grid: one block an SM (or one an item where items are fewer); block b takes items [items b / grid, items (b + 1) /
// grid), item = job x column tiles + tile. jobs: whole matrices (SlabJob with r0 = 0, m = mx), in batch order, so a
// block's items of one matrix are consecutive and its A_i is scattered once. na (1 or 2) A buffers, ns (2 ..
// kPipeMaxStages) B stages, qv: the staging's vectors (pipe_qvecs of the largest job) (the host's pipe_plan).
// The producers copy a matrix's places and values into the staging with cp.async one matrix ahead (a scatter that
// loaded them itself waited a global round trip or more a matrix, in which no B was issued), and scatter from there.
// CW: consumer warps, 8 (at most 80 registers: two blocks an SM where the shared memory allows) or 16.
template <typename T, int CW>
__global__ void __launch_bounds__(32 * pipe_warps(CW), CW == 8 ? 2 : 1)
    slab_pipe_kernel(const SlabJob* __restrict__ jobs, const uint16_t* __restrict__ apos, const T* __restrict__ val, const T* __restrict__ B,
                     T* __restrict__ C, int nb, int max_m, int max_k, int nct, long long items, int qv, int na, int ns) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  static_assert(sizeof(T) == 2, "16-bit values");
  using Op = TileMma<T>;
  constexpr int V = 8;  // values a 16-byte vector
  constexpr int CT = 32 * CW;
  constexpr int NT = kSlabWN / 8;
  extern __shared__ __align__(128) unsigned char pipe_smem[];
  const PipeGeom<T> g(max_m, max_k, qv, na, ns);
  const int ap = g.apitch, bp = g.bpitch;
  const unsigned bars = smem_addr(pipe_smem);
  // Barriers: full B [0, ns), empty B [8, 8 + ns), full A [16, 16 + na), empty A [24, 24 + na), the staging full 28;
  // 8 bytes each.
  auto full_b = [&](int s) { return bars + 8u * unsigned(s); };
  auto empty_b = [&](int s) { return bars + 8u * unsigned(8 + s); };
  auto full_a = [&](int a) { return bars + 8u * unsigned(16 + a); };
  auto empty_a = [&](int a) { return bars + 8u * unsigned(24 + a); };
  const unsigned full_q = bars + 8u * 28u;
  T* const Abuf = reinterpret_cast<T*>(pipe_smem + g.a_off);
  T* const Bbuf = reinterpret_cast<T*>(pipe_smem + g.b_off);
  const size_t a_vals = g.a_bytes / sizeof(T), b_vals = g.b_bytes / sizeof(T);
  const int tid = threadIdx.x;
  if (tid == 0) {
    for (int s = 0; s < ns; ++s) mbar_init(full_b(s), 32), mbar_init(empty_b(s), CW);
    for (int a = 0; a < na; ++a) mbar_init(full_a(a), 32 * kPipeAW), mbar_init(empty_a(a), CW);
    mbar_init(full_q, 32 * kPipeAW);
  }
  __syncthreads();
  const long long it0 = items * blockIdx.x / gridDim.x, it1 = items * (blockIdx.x + 1) / gridDim.x;

  if (tid >= CT + kPipeAW * 32) {
    // The B warp: each item's B tile into the ring, as far ahead as the stages allow.
    const int lane = tid & 31;
    PipeWalk w(jobs, nct, it0, it1);
    const int count = int(it1 - it0);
    for (int n = 0, s = 0, u = 0; n < count; ++n, w.step(), s = s + 1 == ns ? (++u, 0) : s + 1) {
      // kend rows (k_i rounded to the k step; rows past k_i zeros, as they meet A's zero columns and stale values
      // could be NaN) x kPipeBN columns (past nb zeros too), 8 vectors a row.
      if (u > 0) mbar_wait(empty_b(s), unsigned(u - 1) & 1u);
      const int k = w.cur.k, kend = (k + 15) / 16 * 16, j0 = w.ct * kPipeBN, wc = min(kPipeBN, nb - j0);
      const T* Bi = B + (long long)w.cur.c0 * nb + j0;
      const unsigned dst0 = smem_addr(Bbuf + size_t(s) * b_vals);
      for (int e = lane; e < kend * (kPipeBN / V); e += 32) {
        const int r = e / (kPipeBN / V), c = (e % (kPipeBN / V)) * V;
        const bool in = r < k && c < wc;
        cp_async16_zfill(dst0 + unsigned((r * bp + c) * int(sizeof(T))), in ? Bi + (long long)r * nb + c : Bi, in ? 16 : 0);
      }
      cp_async_arrive(full_b(s));
    }
    cp_async_wait<0>();  // (no thread leaves with copies in flight)
    return;
  }
  if (tid >= CT) {
    // The A warps: each matrix's places and values into the staging one matrix ahead, then its dense A_i into buffer
    // t % na once the consumers are past the matrix it held.
    constexpr int AT = 32 * kPipeAW;
    const int pt = tid - CT;
    const uint16_t* const Qp = reinterpret_cast<const uint16_t*>(pipe_smem + g.q_off);
    const uint16_t* const Qv = Qp + g.q_bytes / 2;
    // A job's places and values into the staging (vectors from the one holding q0; the last read only to q1), then
    // an arrival on full_q once this thread's copies land.
    auto stage = [&](const SlabJob& job) {
      const int v0 = job.q0 / V, nv = pipe_qvecs(job.q0, job.q1);
      for (int e = pt; e < nv; e += AT) {
        const long long q = (long long)(v0 + e) * V, left = (job.q1 - q) * 2;
        if (left >= 16) {
          cp_async16(const_cast<uint16_t*>(Qp) + size_t(e) * V, apos + q);
          cp_async16(const_cast<uint16_t*>(Qv) + size_t(e) * V, val + q);
        } else {  // the last, partial vector: plain loads (a 16-byte copy would read past the arrays), ordered before
                  // the scatter by its barrier
          for (int x = 0; x < int(left / 2); ++x) {
            const_cast<uint16_t*>(Qp)[size_t(e) * V + x] = apos[q + x];
            const_cast<uint16_t*>(Qv)[size_t(e) * V + x] = reinterpret_cast<const uint16_t*>(val)[q + x];
          }
        }
      }
      cp_async_arrive(full_q);
    };
    PipeWalk w(jobs, nct, it0, it1);
    // The block's matrices: its first item's, then one a step while its items reach the next.
    for (int t = 0; it0 < it1; ++t) {  // (it0 < it1: the block has items; the loop ends at its last matrix)
      const SlabJob& job = w.cur;
      if (t == 0) stage(job);
      const int a = t % na, ua = t / na;
      mbar_wait(full_q, unsigned(t) & 1u);
      if (ua > 0) mbar_wait(empty_a(a), unsigned(ua - 1) & 1u);
      T* const As = Abuf + size_t(a) * a_vals;
      const int nz = (job.m + 15) / 16 * 16 * ap / V;  // vectors of the job's strips (ap: a multiple of V)
      for (int e = pt; e < nz; e += AT) reinterpret_cast<uint4*>(As)[e] = make_uint4(0, 0, 0, 0);
      asm volatile("bar.sync 1, %0;\n" ::"n"(AT) : "memory");  // the zeros before any scatter
      {
        const int q0 = job.q0, q1 = job.q1, qs = q0 / V * V, nv = pipe_qvecs(q0, q1);
        for (int e = pt; e < nv; e += AT) {
          const uint4 pv = reinterpret_cast<const uint4*>(Qp)[e], vv = reinterpret_cast<const uint4*>(Qv)[e];
          const uint32_t pw[4] = {pv.x, pv.y, pv.z, pv.w}, vw[4] = {vv.x, vv.y, vv.z, vv.w};
          const int q = qs + e * V;
#pragma unroll
          for (int x = 0; x < 8; ++x)
            if (q + x >= q0 && q + x < q1) reinterpret_cast<uint16_t*>(As)[uint16_t(pw[x / 2] >> (16 * (x % 2)))] = uint16_t(vw[x / 2] >> (16 * (x % 2)));
        }
      }
      asm volatile("bar.sync 1, %0;\n" ::"n"(AT) : "memory");  // the staging read before the next matrix's copies
      mbar_arrive(full_a(a));
      if (!w.more()) break;
      stage(w.nxt);
      while (!w.step()) {}  // to the next matrix's first item
    }
    cp_async_wait<0>();
    return;
  }

  // Consumers.
  const int warp = tid >> 5, lane = tid & 31, gq = lane >> 2, tq = lane & 3;
  const unsigned a_lane = Op::a_lane(ap, lane), b_lane = Op::template b_lane<true>(bp, lane);
  int t = -1, a = 0;
  int base = 0;  // pairs of the block's items before this one, mod CW: the pairs' rota continues over items
  PipeWalk w(jobs, nct, it0, it1);
  const int count = int(it1 - it0);
  bool fresh = true;
  for (int n = 0, s = 0, u = 0; n < count; ++n, fresh = w.step(), s = s + 1 == ns ? (++u, 0) : s + 1) {
    const SlabJob& job = w.cur;
    const int ct = w.ct;
    if (fresh) {
      ++t, a = t % na;
      mbar_wait(full_a(a), unsigned(t / na) & 1u);
    }
    mbar_wait(full_b(s), unsigned(u) & 1u);
    const int m = job.m, nks = (job.k + 15) / 16, j0 = ct * kPipeBN, wc = min(kPipeBN, nb - j0);
    const int S = (m + 15) / 16, G = (wc + kSlabWN - 1) / kSlabWN, P = S * G;
    const unsigned a_at0 = smem_addr(Abuf + size_t(a) * a_vals) + a_lane, b_at0 = smem_addr(Bbuf + size_t(s) * b_vals) + b_lane;
    T* const Ci = C + (long long)job.row * nb + j0;
    for (int p = (warp - base + CW) % CW; p < P; p += CW) {
      const int st = G == 2 ? p >> 1 : p, cg = G == 2 ? p & 1 : 0, cw = cg * kSlabWN;  // (G: 1 or 2)
      const int nt = min(NT, (wc - cw + 7) / 8);
      float acc[NT][4];
#pragma unroll
      for (int j = 0; j < NT; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) acc[j][e] = 0.f;
      const unsigned a_at = a_at0 + unsigned(st * 16 * ap * int(sizeof(T))), b_at = b_at0 + unsigned(cw * int(sizeof(T)));
      auto steps = [&](auto tiles) {
        constexpr int nn = decltype(tiles)::value;
#pragma unroll 2
        for (int i = 0; i < nks; ++i) {
          typename Op::A af;
          Op::load_a(a_at + unsigned(i * 16 * int(sizeof(T))), af);
#pragma unroll
          for (int j = 0; j < nn; j += 2) {
            typename Op::B b0, b1;
            Op::template load_b2<true>(b_at + Op::template b_at<true>(bp, j * 8, i * 16), b0, b1);
            Op::mma(acc[j], af, b0);
            if (j + 1 < nn) Op::mma(acc[j + 1], af, b1);
          }
        }
      };
      switch (nt) {
        case 1: steps(std::integral_constant<int, 1>{}); break;
        case 2: steps(std::integral_constant<int, 2>{}); break;
        case 3: steps(std::integral_constant<int, 3>{}); break;
        default: steps(std::integral_constant<int, 4>{});
      }
      // C: after a quad transpose lane tq holds n8 tile tq of its rows, 8 columns: one 16-byte store (as slab_kernel).
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        uint32_t wd[NT];
#pragma unroll
        for (int j = 0; j < NT; ++j) wd[j] = pack16<T>(acc[j][2 * h], acc[j][2 * h + 1]);
        quad_transpose(wd, tq);
        const int r = st * 16 + gq + 8 * h;
        if (r >= m || tq >= nt) continue;
        store_row8<T, 0>(Ci + (long long)r * nb + cw + 8 * tq, wd, true, cw + 8 * tq, wc);
      }
    }
    base = (base + P) % CW;
    __syncwarp();
    if (lane == 0) {
      mbar_arrive(empty_b(s));
      if (n + 1 == count || w.ct + 1 == nct) mbar_arrive(empty_a(a));  // the matrix's last item here
    }
  }
#endif
}

}  // namespace spb
