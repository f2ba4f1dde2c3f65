// cp.async (sm_80 and newer): 16-byte copies (and single 4- or 8-byte values) global -> shared memory
// that do not hold registers while in flight, in commit groups. On older GPUs (the portable check build)
// and in the host emulation (cuda/check/emu) a plain copy, and the group operations do nothing.
#pragma once
#include <cstdint>

namespace spb {

__device__ __forceinline__ void cp_async16(void* dst, const void* src) {
#if defined(__CUDACC__) && (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800)
  const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(d), "l"(src));
#else
  *reinterpret_cast<int4*>(dst) = *reinterpret_cast<const int4*>(src);
#endif
}
// One value global -> shared memory: cp.async for 4- and 8-byte types (sm_80+), else a plain copy.
template <typename T>
__device__ __forceinline__ void cp_async_value(T* dst, const T* src) {
#if defined(__CUDACC__) && (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800)
  if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
    const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(d), "l"(src), "n"(int(sizeof(T))));
    return;
  }
#endif
  *dst = *src;
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
