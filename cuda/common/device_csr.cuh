// A CSR operand copied to the device (int32 indices, values as T) with plain cudaMalloc: the inputs of
// the SpGEMM executables (cuda/drivers/spgemm_cuda.cu, plugin_spgemm.cu), outside every method's tracked
// memory. Freed with the object.
#pragma once
#include <cuda_runtime.h>
#include <algorithm>
#include <vector>
#include "binfmt.hpp"
#include "check.cuh"

namespace spb {

template <typename T>
struct DeviceCsr {
  int rows = 0, cols = 0;
  long long nnz = 0;
  int *rp = nullptr, *ci = nullptr;
  T* v = nullptr;
  explicit DeviceCsr(const Csr& c) : rows(int(c.rows)), cols(int(c.cols)), nnz(c.nnz()) {
    std::vector<int> r(c.row_ptr.begin(), c.row_ptr.end()), i(c.col_idx.begin(), c.col_idx.end());
    std::vector<T> v_(c.values.begin(), c.values.end());
    CUDA_CHECK(cudaMalloc(&rp, sizeof(int) * r.size()));
    CUDA_CHECK(cudaMalloc(&ci, sizeof(int) * std::max<size_t>(1, i.size())));
    CUDA_CHECK(cudaMalloc(&v, sizeof(T) * std::max<size_t>(1, v_.size())));
    CUDA_CHECK(cudaMemcpy(rp, r.data(), sizeof(int) * r.size(), cudaMemcpyHostToDevice));
    if (!i.empty()) CUDA_CHECK(cudaMemcpy(ci, i.data(), sizeof(int) * i.size(), cudaMemcpyHostToDevice));
    if (!v_.empty()) CUDA_CHECK(cudaMemcpy(v, v_.data(), sizeof(T) * v_.size(), cudaMemcpyHostToDevice));
  }
  DeviceCsr(const DeviceCsr&) = delete;
  DeviceCsr& operator=(const DeviceCsr&) = delete;
  ~DeviceCsr() { cudaFree(rp); cudaFree(ci); cudaFree(v); }
};

}  // namespace spb
