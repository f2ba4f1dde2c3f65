// Host stand-in for the few CUDA runtime pieces the spmm kernel headers use, so spmm_emu.cpp can run
// col_kernel, staged_kernel and split_kernel on the CPU (g++, C++20). Not a CUDA implementation: just enough of one.
// A block whose kernel has barriers runs its threads as user-space fibers on one OS thread: a __syncthreads is
// a switch back to the scheduler, not a kernel-mode context switch (std::threads spent most of the run in the kernel).
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>
#include "../emu_fiber.h"  // the switch, stacks and resume / yield, shared with the SpGEMM emulation
typedef int cudaError_t;
constexpr int cudaSuccess = 0;
inline const char* cudaGetErrorString(cudaError_t) { return "emu"; }
typedef void* cudaStream_t;
struct cudaDeviceProp { size_t sharedMemPerBlockOptin = 232448, sharedMemPerMultiprocessor = 233472; int multiProcessorCount = 132, maxThreadsPerMultiProcessor = 2048, maxBlocksPerMultiProcessor = 32, l2CacheSize = 52428800; };
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int) { *p = cudaDeviceProp(); return 0; }
inline cudaError_t cudaMalloc(void** p, size_t n) { *p = std::malloc(n); return 0; }
inline cudaError_t cudaFree(void* p) { std::free(p); return 0; }
inline cudaError_t cudaMallocHost(void** p, size_t n) { *p = std::malloc(n); return 0; }
template <class T> cudaError_t cudaMallocHost(T** p, size_t n) { *p = (T*)std::malloc(n); return 0; }
inline cudaError_t cudaFreeHost(void* p) { std::free(p); return 0; }
inline cudaError_t cudaGetLastError() { return 0; }
// the tracking allocator's (cuda/common/tracking_alloc.cuh) stream-ordered path and pool setting
typedef void* cudaMemPool_t;
enum cudaMemPoolAttr { cudaMemPoolAttrReleaseThreshold };
inline cudaError_t cudaMallocAsync(void** p, size_t n, cudaStream_t) { return cudaMalloc(p, n); }
inline cudaError_t cudaFreeAsync(void* p, cudaStream_t) { return cudaFree(p); }
inline cudaError_t cudaMemsetAsync(void* p, int v, size_t n, cudaStream_t = nullptr) { std::memset(p, v, n); return 0; }
inline cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* p, int) { *p = nullptr; return 0; }
inline cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t, cudaMemPoolAttr, void*) { return 0; }
struct int4 { int x, y, z, w; };
inline int4 make_int4(int x, int y, int z, int w) { return {x, y, z, w}; }
struct alignas(16) uint4 { unsigned x, y, z, w; };
struct alignas(8) float2 { float x, y; };
inline float2 make_float2(float x, float y) { return {x, y}; }
// PRMT's default mode: byte i of the result is byte (s >> 4i) & 7 of {y, x} (x the low four).
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  const unsigned long long b = (static_cast<unsigned long long>(y) << 32) | x;
  unsigned r = 0;
  for (int i = 0; i < 4; ++i) r |= unsigned((b >> (8 * ((s >> (4 * i)) & 7u))) & 0xffu) << (8 * i);
  return r;
}
struct dim3 { unsigned x = 1, y = 1, z = 1; dim3() = default; dim3(unsigned a, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {} };
inline dim3 threadIdx, blockIdx;  // one OS thread runs every fiber: the scheduler sets threadIdx before each resume
inline dim3 blockDim, gridDim;
// A barrier: the fiber yields; the scheduler resumes it once every thread of the block has arrived. Each
// thread records which __syncthreads it waits at, so that the scheduler stops on a warp split between two
// (spb::fiber::warp_split).
namespace spb {
inline fiber::Site emu_site[1024];
}
inline void emu_syncthreads(const char* file, int line, int id) {
  if (!spb::fiber::cur) { std::fprintf(stderr, "emu: __syncthreads in a launch not marked threaded\n"); std::abort(); }
  spb::emu_site[threadIdx.x] = {file, line, id};
  spb::fiber::yield();
}
#define __syncthreads() emu_syncthreads(__FILE__, __LINE__, __COUNTER__)
// A warp's barrier: the block's, so kernels that use it run in one-warp blocks here (batched-col's streamed path).
#define __syncwarp(...) emu_syncthreads(__FILE__, __LINE__, __COUNTER__)
template <class T> inline T __ldg(const T* p) { return *p; }
// A warp shuffle: every thread of the block writes its value, meets the others at the block's barrier and
// reads its partner's (the kernels that shuffle keep every thread of a block in step, so the block barrier
// stands for the warp's). float and double pass through double exactly.
namespace spb { inline double emu_shfl[1024]; }
template <class T> inline T __shfl_xor_sync(unsigned, T v, int o) {
  const unsigned t = threadIdx.x;
  spb::emu_shfl[t] = double(v);
  __syncthreads();
  const T r = T(spb::emu_shfl[(t & ~31u) | ((t & 31u) ^ unsigned(o))]);
  __syncthreads();
  return r;
}
using std::min;
using std::max;
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __restrict__
#define __align__(x) __attribute__((aligned(x)))
#define __shared__
namespace spb { alignas(16) inline unsigned char emu_smem[2 * 1024 * 1024]; }
#define smem_raw emu_smem
// Runs a grid: blocks one after another; a block's threads as fibers (threaded = the kernel has barriers:
// each runs until its next __syncthreads or its return, in turn, and the barrier opens when all have arrived)
// or one after another.
inline void emu_launch(dim3 grid, dim3 block, bool threaded, const std::function<void()>& body) {
  gridDim = grid; blockDim = block;
  auto stale = [] { std::memset(spb::emu_smem, 0xA5, sizeof spb::emu_smem); };  // stale shared memory: garbage
  if (!threaded) {
    for (unsigned by = 0; by < grid.y; ++by)
      for (unsigned bx = 0; bx < grid.x; ++bx) {
        stale();
        for (unsigned t = 0; t < block.x; ++t) { blockIdx = dim3(bx, by); threadIdx = dim3(t); body(); }
      }
    return;
  }
  namespace f = spb::fiber;
  std::vector<f::Ctx> ctx(block.x);
  std::vector<char> done(block.x);
  f::body = &body;
  for (unsigned by = 0; by < grid.y; ++by)
    for (unsigned bx = 0; bx < grid.x; ++bx) {
      stale();
      blockIdx = dim3(bx, by);
      for (unsigned t = 0; t < block.x; ++t) f::start(ctx[t], t, block.x), done[t] = 0;
      // Rounds: every live fiber runs to its next barrier (or its end). A round in which some return and
      // others wait at a barrier would hang on a GPU that counts all threads: a kernel bug, stop on it.
      for (unsigned live = block.x, round = 0; live; ++round) {
        unsigned returned = 0;
        for (unsigned i = 0; i < block.x; ++i) {
          const unsigned t = round & 1 ? block.x - 1 - i : i;  // alternate the order so a missing barrier shows either way
          if (done[t]) continue;
          threadIdx = dim3(t);
          if (f::resume(ctx[t])) done[t] = 1, ++returned;
        }
        if (returned && returned != live) {
          std::fprintf(stderr, "emu: block (%u,%u): %u of %u threads returned while the others wait at __syncthreads\n", bx, by, returned, live);
          std::abort();
        }
        f::warp_split(spb::emu_site, block.x, [&](unsigned t) { return !done[t]; }, bx, by);
        live -= returned;
      }
    }
}
