// cp.async (sm_80 and newer): 16-byte copies (and single 4- or 8-byte values) global -> shared memory
// that do not hold registers while in flight, in commit groups. On older GPUs (the portable check build)
// and in the host emulation (cuda/check/emu) a plain copy, and the group operations do nothing.
#pragma once
#include <cstdint>
#include <cstring>

namespace spb {

__device__ __forceinline__ void cp_async16(void* dst, const void* src) {
#if defined(__CUDACC__) && (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800)
  const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(d), "l"(src));
#else
  *reinterpret_cast<int4*>(dst) = *reinterpret_cast<const int4*>(src);
#endif
}
// 4 or 8 bytes global -> shared memory (both addresses aligned to N), cp.async on sm_80+.
template <int N>
__device__ __forceinline__ void cp_async_small(void* dst, const void* src) {
  static_assert(N == 4 || N == 8, "cp.async.ca sizes");
#if defined(__CUDACC__) && (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800)
  const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(d), "l"(src), "n"(N));
#else
  std::memcpy(dst, src, N);
#endif
}
// One value global -> shared memory: cp.async for 4- and 8-byte types (sm_80+; cp_async_small), else a plain copy.
template <typename T>
__device__ __forceinline__ void cp_async_value(T* dst, const T* src) {
  if constexpr (sizeof(T) == 4 || sizeof(T) == 8) cp_async_small<int(sizeof(T))>(dst, src);
  else *dst = *src;
}
// A 16-byte vector of shared memory (dst, 16-byte aligned) from n (0..V) values at src, zeros past n, for
// sources that are not 16-byte aligned (a column-major B_i whose k is not a multiple of V, a row-major one
// whose nb is not): cp.async of 8 or 4 bytes where src allows, so the copy stays asynchronous (f32 and f64
// always; 16-bit where src is 4-byte aligned; docs/spmm-notes.md, "misaligned B and C"). Left to plain
// loads: 16-bit at an odd element (no cp.async size takes a 2-byte shift between source and destination)
// and partial vectors (the last of a column or row).
template <typename T, int V>
__device__ __forceinline__ void cp_async_part(T* dst, const T* src, int n) {
  static_assert(V * sizeof(T) == 16, "a 16-byte vector");
  const unsigned mis = static_cast<unsigned>(reinterpret_cast<uintptr_t>(src)) & 15u;
  if (n >= V && mis == 0) return cp_async16(dst, src);
  if (n >= V && mis % 8 == 0) {
    cp_async_small<8>(dst, src);
    return cp_async_small<8>(dst + 8 / sizeof(T), src + 8 / sizeof(T));
  }
  if (n >= V && mis % 4 == 0) {
#pragma unroll
    for (int x = 0; x < 4; ++x) cp_async_small<4>(reinterpret_cast<char*>(dst) + 4 * x, reinterpret_cast<const char*>(src) + 4 * x);
    return;
  }
#pragma unroll
  for (int x = 0; x < V; ++x) dst[x] = x < n ? src[x] : T(0);
}
__device__ __forceinline__ void cp_async_commit() {
#if defined(__CUDACC__) && (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800)
  asm volatile("cp.async.commit_group;\n" ::);
#endif
}
template <int N>
__device__ __forceinline__ void cp_async_wait() {
#if defined(__CUDACC__) && (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800)
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
#endif
}

}  // namespace spb
