// Host emulation of the CUDA runtime and device intrinsics that the hash SpGEMM (cuda/spgemm/) uses, so its host code
// and kernels run on a CPU with g++ (C++20) and are checked against the CPU reference where no GPU exists.
// Not a CUDA implementation: blocks run one after another; a block's threads are user-space fibers on one OS thread
// (emu_fiber.h; a std::thread each spent most of the run in the kernel), switching only at barriers: __syncthreads is a
// block barrier, shuffles and ballots exchange through a per-warp slot array between two warp barriers; atomics are
// plain read-modify-writes (no fiber runs in the middle of one); streams and events are synchronous. Shared memory is
// per block (blocks never overlap). The sources are first rewritten by emu_prepare.py (launch syntax, shared-memory
// declarations), which copies emu_fiber.h next to this file.
#pragma once
#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <type_traits>
#include <vector>
#include "emu_fiber.h"

typedef int cudaError_t;
constexpr int cudaSuccess = 0;
inline const char* cudaGetErrorString(cudaError_t) { return "emulated error"; }
typedef struct EmuStream* cudaStream_t;
typedef struct EmuEvent* cudaEvent_t;
typedef void* cudaMemPool_t;
enum cudaMemcpyKind { cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice };
enum { cudaStreamNonBlocking = 1, cudaEventDisableTiming = 2 };
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize, cudaFuncAttributePreferredSharedMemoryCarveout };
enum cudaSharedCarveout { cudaSharedmemCarveoutMaxShared = 100 };
enum cudaMemPoolAttr { cudaMemPoolAttrReleaseThreshold };
struct cudaFuncAttributes { size_t sharedSizeBytes = 0; };
struct cudaDeviceProp {
  char name[256] = "emulated";
  size_t sharedMemPerBlockOptin = 232448, sharedMemPerMultiprocessor = 233472;
  int multiProcessorCount = 2, maxThreadsPerMultiProcessor = 2048, maxBlocksPerMultiProcessor = 32, maxThreadsPerBlock = 1024;
};

struct dim3 { unsigned x = 1, y = 1, z = 1; dim3() = default; dim3(unsigned a, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {} };
inline dim3 threadIdx, blockIdx;  // one OS thread runs every fiber: the scheduler sets threadIdx before each resume
inline dim3 blockDim, gridDim;

inline cudaError_t cudaMalloc(void** p, size_t n) { *p = std::malloc(std::max<size_t>(n, 16)); return 0; }
inline cudaError_t cudaFree(void* p) { std::free(p); return 0; }
inline cudaError_t cudaMallocAsync(void** p, size_t n, cudaStream_t) { return cudaMalloc(p, n); }
inline cudaError_t cudaFreeAsync(void* p, cudaStream_t) { return cudaFree(p); }
inline cudaError_t cudaMallocHost(void** p, size_t n) { return cudaMalloc(p, n); }
inline cudaError_t cudaFreeHost(void* p) { return cudaFree(p); }
inline cudaError_t cudaMemsetAsync(void* p, int v, size_t n, cudaStream_t = nullptr) { std::memset(p, v, n); return 0; }
inline cudaError_t cudaMemcpyAsync(void* d, const void* s, size_t n, cudaMemcpyKind, cudaStream_t = nullptr) { std::memmove(d, s, n); return 0; }
inline cudaError_t cudaMemcpy(void* d, const void* s, size_t n, cudaMemcpyKind k) { return cudaMemcpyAsync(d, s, n, k); }
inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned) { *s = reinterpret_cast<cudaStream_t>(new char); return 0; }
inline cudaError_t cudaStreamDestroy(cudaStream_t s) { delete reinterpret_cast<char*>(s); return 0; }
inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return 0; }
inline cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned) { return 0; }
inline cudaError_t cudaEventCreate(cudaEvent_t* e) { *e = reinterpret_cast<cudaEvent_t>(new char); return 0; }
inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned) { return cudaEventCreate(e); }
inline cudaError_t cudaEventDestroy(cudaEvent_t e) { delete reinterpret_cast<char*>(e); return 0; }
inline cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t = nullptr) { return 0; }
inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return 0; }
inline cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t, cudaEvent_t) { *ms = 0; return 0; }
inline cudaError_t cudaGetLastError() { return 0; }
inline cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* p, int) { *p = nullptr; return 0; }
inline cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t, cudaMemPoolAttr, void*) { return 0; }
template <class F> cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* a, F*) { *a = cudaFuncAttributes(); return 0; }
template <class F> cudaError_t cudaFuncSetAttribute(F*, cudaFuncAttribute, int) { return 0; }

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __restrict__
#define __align__(x) __attribute__((aligned(x)))

// CUDA's min/max take mixed integer types through the usual conversions
template <class A, class B> inline std::common_type_t<A, B> min(A a, B b) { return a < b ? a : b; }
template <class A, class B> inline std::common_type_t<A, B> max(A a, B b) { return a < b ? b : a; }

// ---- one block's synchronisation
// A barrier (the block's, or a warp's) opens when every live thread of its scope has arrived; the thread whose arrival
// opens it goes on without a switch, the others wait, marked, until the scheduler resumes them. A thread that returns
// from the kernel leaves both barriers (as arrive_and_drop did with std::barrier, and as PTX's exit releases barriers
// held up only by exiting threads): its warp's collectives go on without it (reading its last slot), and a block
// barrier that then opens without it stops the run (emu_open_block).
enum : unsigned char { kEmuRun, kEmuAtBlock, kEmuAtWarp, kEmuDone };
struct EmuBlock {
  unsigned n = 0, live = 0, arrived = 0;    // threads; not returned; at the block barrier now
  std::vector<unsigned> w_live, w_arrived;  // the same a warp
  std::vector<unsigned char> state;         // kEmu* a thread
  std::vector<std::array<uint64_t, 32>> slots;
  std::vector<spb::fiber::Site> site;  // the __syncthreads a thread waits at
  int flag = 0;
  unsigned bx = 0, by = 0;
};
inline EmuBlock* emu_block = nullptr;
alignas(16) inline unsigned char emu_dyn_smem[256 * 1024];

inline void emu_open(EmuBlock& b, unsigned char at, unsigned lo, unsigned hi) {
  for (unsigned t = lo; t < hi; ++t) if (b.state[t] == at) b.state[t] = kEmuRun;
}
// The block barrier opens. Threads that returned before it while others reach it are a kernel bug (CUDA C++ asks that
// every thread of the block reach each __syncthreads; these kernels let only whole blocks return before one, and
// k_warp's whole warps leave where no block barrier follows), so stop on it instead of going on without them.
inline void emu_open_block(EmuBlock& b) {
  if (b.live < b.n) {
    std::fflush(stdout);  // the cases done so far, before the message
    std::fprintf(stderr, "emu: block (%u,%u): %u of %u threads returned while the others wait at __syncthreads\n", b.bx, b.by, b.n - b.live, b.n);
    std::abort();
  }
  // Every thread of a warp at the same __syncthreads (all of them wait here: none returned, above).
  spb::fiber::warp_split(b.site.data(), b.n, [](unsigned) { return true; }, b.bx, b.by);
  b.arrived = 0;
  emu_open(b, kEmuAtBlock, 0, b.n);
}
inline void emu_open_warp(EmuBlock& b, unsigned w) {
  b.w_arrived[w] = 0;
  emu_open(b, kEmuAtWarp, 32 * w, std::min(b.n, 32 * w + 32));
}
inline void emu_syncthreads(const char* file, int line, int id) {
  EmuBlock& b = *emu_block;
  b.site[threadIdx.x] = {file, line, id};
  if (++b.arrived == b.live) { emu_open_block(b); return; }
  b.state[threadIdx.x] = kEmuAtBlock;
  spb::fiber::yield();
}
#define __syncthreads() emu_syncthreads(__FILE__, __LINE__, __COUNTER__)
inline void emu_warp_barrier() {
  EmuBlock& b = *emu_block;
  const unsigned w = threadIdx.x / 32;
  if (++b.w_arrived[w] == b.w_live[w]) { emu_open_warp(b, w); return; }
  b.state[threadIdx.x] = kEmuAtWarp;
  spb::fiber::yield();
}
// __syncthreads_or / __syncthreads_count: every thread adds its predicate to the block's flag between two barriers
inline int emu_block_vote(int p) {
  EmuBlock& b = *emu_block;
  __syncthreads();
  if (p) ++b.flag;
  __syncthreads();
  const int r = b.flag;
  __syncthreads();
  if (threadIdx.x == 0) b.flag = 0;
  return r;
}
inline int __syncthreads_or(int p) { return emu_block_vote(p) != 0; }
inline int __syncthreads_count(int p) { return emu_block_vote(p); }
inline void __syncwarp(unsigned = 0xffffffffu) { emu_warp_barrier(); }
template <class T> inline T emu_exchange(T v, int src) {
  static_assert(sizeof(T) <= 8);
  const unsigned w = threadIdx.x / 32, lane = threadIdx.x % 32;
  uint64_t u = 0; std::memcpy(&u, &v, sizeof(T));
  emu_block->slots[w][lane] = u;
  emu_warp_barrier();
  const uint64_t got = emu_block->slots[w][unsigned(src) & 31u];
  emu_warp_barrier();
  T r; std::memcpy(&r, &got, sizeof(T));
  return r;
}
template <class T> inline T __shfl_sync(unsigned, T v, int src) { return emu_exchange(v, src); }
template <class T> inline T __shfl_xor_sync(unsigned, T v, int m) { return emu_exchange(v, int(threadIdx.x % 32) ^ m); }
template <class T> inline T __shfl_up_sync(unsigned, T v, unsigned d) {
  const int lane = int(threadIdx.x % 32);
  const T r = emu_exchange(v, lane >= int(d) ? lane - int(d) : lane);
  return r;
}
inline unsigned __ballot_sync(unsigned, int p) {
  const unsigned w = threadIdx.x / 32, lane = threadIdx.x % 32;
  emu_block->slots[w][lane] = p ? 1 : 0;
  emu_warp_barrier();
  unsigned r = 0;
  for (unsigned i = 0; i < 32; ++i) if (emu_block->slots[w][i]) r |= 1u << i;
  emu_warp_barrier();
  return r;
}
inline int __reduce_max_sync(unsigned, int v) {
  const unsigned w = threadIdx.x / 32, lane = threadIdx.x % 32;
  emu_block->slots[w][lane] = uint64_t(uint32_t(v));
  emu_warp_barrier();
  int r = INT_MIN;
  for (unsigned i = 0; i < 32; ++i) r = std::max(r, int(uint32_t(emu_block->slots[w][i])));
  emu_warp_barrier();
  return r;
}
struct alignas(16) int4 { int x, y, z, w; };
inline int __all_sync(unsigned m, int p) { return __ballot_sync(m, p) == 0xffffffffu; }
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __ffs(unsigned x) { return __builtin_ffs(int(x)); }

// Atomics: fibers switch only at barriers, so a read-modify-write is never interleaved with another thread's.
template <class T> inline T atomicAdd(T* p, T v) { const T o = *p; *p = o + v; return o; }
inline int atomicCAS(int* p, int cmp, int v) { const int o = *p; if (o == cmp) *p = v; return o; }
inline unsigned atomicOr(unsigned* p, unsigned v) { const unsigned o = *p; *p = o | v; return o; }
inline int atomicExch(int* p, int v) { const int o = *p; *p = v; return o; }
inline int atomicMax(int* p, int v) { const int o = *p; if (o < v) *p = v; return o; }
inline int atomicMin(int* p, int v) { const int o = *p; if (o > v) *p = v; return o; }

// A launch: its blocks one after another, a block's threads as fibers started afresh (stale shared memory, zeroed
// slots and flag). Rounds: every runnable fiber runs until it waits at a barrier or returns, in turn, the order
// alternating from round to round so that a missing barrier shows either way. A round in which none can run is a
// hang on the GPU (say, some threads of a warp at a shuffle, the others at __syncthreads): stop on it.
inline void emu_launch(dim3 grid, dim3 block, const std::function<void()>& body) {
  namespace f = spb::fiber;
  gridDim = grid; blockDim = block;
  const unsigned n = block.x, nw = (n + 31) / 32;
  if ((unsigned long long)grid.x * grid.y == 0 || n == 0) return;
  EmuBlock b;
  b.n = n;
  b.w_live.resize(nw); b.w_arrived.resize(nw); b.state.resize(n); b.slots.resize(nw); b.site.resize(n);
  std::vector<f::Ctx> ctx(n);
  f::body = &body;
  emu_block = &b;
  for (unsigned by = 0; by < grid.y; ++by)
    for (unsigned bx = 0; bx < grid.x; ++bx) {
      std::memset(emu_dyn_smem, 0xA5, sizeof emu_dyn_smem);  // stale shared memory is garbage
      b.bx = bx; b.by = by; b.live = n; b.arrived = 0; b.flag = 0;
      for (unsigned w = 0; w < nw; ++w) b.w_live[w] = std::min(32u, n - 32 * w), b.w_arrived[w] = 0, b.slots[w].fill(0);
      blockIdx = dim3(bx, by);
      for (unsigned t = 0; t < n; ++t) f::start(ctx[t], t, n), b.state[t] = kEmuRun;
      for (unsigned round = 0; b.live; ++round) {
        bool ran = false;
        for (unsigned i = 0; i < n; ++i) {
          const unsigned t = round & 1 ? n - 1 - i : i;
          if (b.state[t] != kEmuRun) continue;
          ran = true;
          threadIdx = dim3(t);
          if (!f::resume(ctx[t])) continue;
          // returned: it leaves its warp's barrier and the block's, which may open them
          const unsigned w = t / 32;
          b.state[t] = kEmuDone;
          --b.live; --b.w_live[w];
          if (b.w_arrived[w] && b.w_arrived[w] == b.w_live[w]) emu_open_warp(b, w);
          if (b.arrived && b.arrived == b.live) emu_open_block(b);
        }
        if (!ran) {
          unsigned at_block = 0, at_warp = 0, w0 = nw;
          for (unsigned t = 0; t < n; ++t) {
            at_block += b.state[t] == kEmuAtBlock;
            if (b.state[t] == kEmuAtWarp) { ++at_warp; w0 = std::min(w0, t / 32); }
          }
          std::fflush(stdout);
          std::fprintf(stderr, "emu: block (%u,%u) hangs: %u threads wait at __syncthreads, %u at a warp barrier (__syncwarp, shuffle, "
                       "ballot, reduce; first in warp %u) that threads of their warp waiting at __syncthreads never reach\n", bx, by, at_block, at_warp, w0);
          std::abort();
        }
      }
    }
  emu_block = nullptr;
}
#define EMU_LAUNCH(grid, block, smem, stream, call) emu_launch(dim3(grid), dim3(block), [&] { call; })

// cub::DeviceScan::ExclusiveSum, serial (the one CUB call of the host code)
namespace cub {
struct DeviceScan {
  template <class I, class O>
  static cudaError_t ExclusiveSum(void* tmp, size_t& bytes, I in, O out, int n, cudaStream_t = nullptr) {
    if (!tmp) { bytes = 16; return 0; }
    std::remove_reference_t<decltype(out[0])> s = 0;
    for (int i = 0; i < n; ++i) { const auto v = in[i]; out[i] = s; s += v; }
    return 0;
  }
};
}  // namespace cub
