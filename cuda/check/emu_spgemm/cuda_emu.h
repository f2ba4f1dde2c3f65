// Host emulation of the CUDA runtime and device intrinsics that the hash SpGEMM (cuda/spgemm/) uses, so its host code
// and kernels run on a CPU with g++ (C++20) and are checked against the CPU reference where no GPU exists.
// Not a CUDA implementation: blocks run one after another; a block's threads are std::threads; __syncthreads is a
// block barrier, shuffles and ballots exchange through a per-warp slot array between two warp barriers; atomics are
// std::atomic_ref; streams and events are synchronous. Shared memory is per block (blocks never overlap).
// The sources are first rewritten by emu_prepare.py (launch syntax, shared-memory declarations).
#pragma once
#include <algorithm>
#include <array>
#include <atomic>
#include <barrier>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <thread>
#include <type_traits>
#include <vector>

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
inline thread_local dim3 threadIdx, blockIdx;
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
struct EmuBlock {
  std::unique_ptr<std::barrier<>> bar;
  std::vector<std::unique_ptr<std::barrier<>>> warp_bar;
  std::vector<std::array<uint64_t, 32>> slots;
  std::atomic<int> flag{0};
};
inline EmuBlock* emu_block = nullptr;
alignas(16) inline unsigned char emu_dyn_smem[256 * 1024];

inline void __syncthreads() { emu_block->bar->arrive_and_wait(); }
// __syncthreads_or / __syncthreads_count: every thread adds its predicate to the block's flag between two barriers
inline int emu_block_vote(int p) {
  EmuBlock& b = *emu_block;
  b.bar->arrive_and_wait();
  if (p) b.flag.fetch_add(1);
  b.bar->arrive_and_wait();
  const int r = b.flag.load();
  b.bar->arrive_and_wait();
  if (threadIdx.x == 0) b.flag.store(0);
  return r;
}
inline int __syncthreads_or(int p) { return emu_block_vote(p) != 0; }
inline int __syncthreads_count(int p) { return emu_block_vote(p); }
inline void __syncwarp(unsigned = 0xffffffffu) { emu_block->warp_bar[threadIdx.x / 32]->arrive_and_wait(); }
template <class T> inline T emu_exchange(T v, int src) {
  static_assert(sizeof(T) <= 8);
  const unsigned w = threadIdx.x / 32, lane = threadIdx.x % 32;
  uint64_t u = 0; std::memcpy(&u, &v, sizeof(T));
  emu_block->slots[w][lane] = u;
  emu_block->warp_bar[w]->arrive_and_wait();
  const uint64_t got = emu_block->slots[w][unsigned(src) & 31u];
  emu_block->warp_bar[w]->arrive_and_wait();
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
  emu_block->warp_bar[w]->arrive_and_wait();
  unsigned r = 0;
  for (unsigned i = 0; i < 32; ++i) if (emu_block->slots[w][i]) r |= 1u << i;
  emu_block->warp_bar[w]->arrive_and_wait();
  return r;
}
inline int __reduce_max_sync(unsigned, int v) {
  const unsigned w = threadIdx.x / 32, lane = threadIdx.x % 32;
  emu_block->slots[w][lane] = uint64_t(uint32_t(v));
  emu_block->warp_bar[w]->arrive_and_wait();
  int r = INT_MIN;
  for (unsigned i = 0; i < 32; ++i) r = std::max(r, int(uint32_t(emu_block->slots[w][i])));
  emu_block->warp_bar[w]->arrive_and_wait();
  return r;
}
struct alignas(16) int4 { int x, y, z, w; };
inline int __all_sync(unsigned m, int p) { return __ballot_sync(m, p) == 0xffffffffu; }
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __ffs(unsigned x) { return __builtin_ffs(int(x)); }

template <class T> inline T atomicAdd(T* p, T v) { return std::atomic_ref<T>(*p).fetch_add(v); }
inline int atomicCAS(int* p, int cmp, int v) { std::atomic_ref<int>(*p).compare_exchange_strong(cmp, v); return cmp; }
inline unsigned atomicOr(unsigned* p, unsigned v) { return std::atomic_ref<unsigned>(*p).fetch_or(v); }
inline int atomicExch(int* p, int v) { return std::atomic_ref<int>(*p).exchange(v); }
inline int atomicMax(int* p, int v) { std::atomic_ref<int> a(*p); int o = a.load(); while (o < v && !a.compare_exchange_weak(o, v)) {} return o; }
inline int atomicMin(int* p, int v) { std::atomic_ref<int> a(*p); int o = a.load(); while (o > v && !a.compare_exchange_weak(o, v)) {} return o; }

// A launch: blockDim std::threads run every block in turn (thread creation is the emulation's main cost, so they are
// made once a launch). A launch-level barrier separates the blocks; its completion step sets up the next block's
// barriers and stale shared memory. A thread that returns from the kernel drops out of its block's barriers, as exited
// CUDA threads stop counting at __syncthreads, and waits at the launch barrier for the next block.
inline void emu_launch(dim3 grid, dim3 block, const std::function<void()>& body) {
  gridDim = grid; blockDim = block;
  const unsigned n = block.x, nw = (n + 31) / 32;
  const unsigned long long nblocks = (unsigned long long)grid.x * grid.y;
  if (nblocks == 0 || n == 0) return;
  std::unique_ptr<EmuBlock> cur;
  unsigned long long next = 0;
  dim3 bid;
  auto setup = [&]() noexcept {
    if (next >= nblocks) { cur.reset(); emu_block = nullptr; return; }
    bid = dim3(unsigned(next % grid.x), unsigned(next / grid.x));
    ++next;
    std::memset(emu_dyn_smem, 0xA5, sizeof emu_dyn_smem);  // stale shared memory is garbage
    cur = std::make_unique<EmuBlock>();
    cur->bar = std::make_unique<std::barrier<>>(n);
    for (unsigned w = 0; w < nw; ++w) cur->warp_bar.push_back(std::make_unique<std::barrier<>>(std::min(32u, n - 32 * w)));
    cur->slots.resize(nw);
    emu_block = cur.get();
  };
  setup();
  std::barrier<decltype(setup)> between(n, setup);
  std::vector<std::thread> th;
  th.reserve(n);
  for (unsigned t = 0; t < n; ++t)
    th.emplace_back([&, t] {
      for (unsigned long long k = 0; k < nblocks; ++k) {
        EmuBlock* b = emu_block;
        blockIdx = bid; threadIdx = dim3(t);
        body();
        b->warp_bar[t / 32]->arrive_and_drop();
        b->bar->arrive_and_drop();
        between.arrive_and_wait();
      }
    });
  for (auto& x : th) x.join();
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
