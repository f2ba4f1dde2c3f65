// The 16-bit value types on the GPU: __half (f16) and __nv_bfloat16 (bf16), stored in 16 bits and
// accumulated in float (Acc<T>, cuda/common/value_traits.hpp), and the CUDA library data type of every
// value type (cuSPARSE / cuBLAS descriptors).
// (tolerances: cuda/common/value_traits.hpp, docs/spmm-notes.md "f16/bf16").
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <library_types.h>
#include "value_traits.hpp"

namespace spb {

template <>
struct Acc<__half> : PrecF16 {
  using type = float;
  static SPB_HD float widen(__half x) { return __half2float(x); }
  static SPB_HD __half narrow(float x) { return __float2half_rn(x); }
};

template <>
struct Acc<__nv_bfloat16> : PrecBF16 {
  using type = float;
  static SPB_HD float widen(__nv_bfloat16 x) { return __bfloat162float(x); }
  static SPB_HD __nv_bfloat16 narrow(float x) { return __float2bfloat16_rn(x); }
};

template <typename T> constexpr cudaDataType cuda_type();
template <> constexpr cudaDataType cuda_type<float>() { return CUDA_R_32F; }
template <> constexpr cudaDataType cuda_type<double>() { return CUDA_R_64F; }
template <> constexpr cudaDataType cuda_type<__half>() { return CUDA_R_16F; }
template <> constexpr cudaDataType cuda_type<__nv_bfloat16>() { return CUDA_R_16BF; }

}  // namespace spb
