// C brought from the device for the check of spgemm_check.hpp: all of it against a full reference; against a reference
// of some rows (rows:N, and --reference auto on large products) only those rows, gathered on the device first (a C of
// 10^9 entries would otherwise cross PCIe and fill host memory for a check of a few thousand rows). Used by both SpGEMM
// drivers.
#pragma once
#include <cuda_runtime.h>
#include <memory>
#include <string>
#include <vector>
#include "check.cuh"
#include "spgemm_check.hpp"

namespace spb {

// One warp a row: row rows[j] of (rp, ci, v) to entries off[j]..off[j+1] of (oc, ov).
template <typename T>
__global__ void k_gather_rows(const long long* rows, const long long* off, long long n, const int* rp, const int* ci, const T* v, int* oc, T* ov) {
  const long long w = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32;
  const int lane = int(threadIdx.x & 31);
  if (w >= n) return;
  const long long s = rp[rows[w]], o = off[w], len = off[w + 1] - o;
  for (long long k = lane; k < len; k += 32) { oc[o + k] = ci[s + k]; ov[o + k] = v[s + k]; }
}

// Checks C (a device CSR of `rows` rows and `nnz` entries, int32 indices) against ref.
template <typename T>
SpgemmCheck fetch_and_check(const SpgemmReference& ref, int64_t rows, long long nnz, const int* rp, const int* ci, const T* v, double tol) {
  std::vector<int> hrp(size_t(rows) + 1);
  CUDA_CHECK(cudaMemcpy(hrp.data(), rp, sizeof(int) * hrp.size(), cudaMemcpyDeviceToHost));
  if (hrp[size_t(rows)] != nnz)
    return SpgemmCheck{false, 0, "row pointer ends at " + std::to_string(hrp[size_t(rows)]) + " but C has " + std::to_string(nnz) + " entries"};
  if (ref.rows.empty()) {
    // not std::vector: zero-filling 10^9 entries before overwriting them costs seconds
    std::unique_ptr<int[]> hci(new int[size_t(nnz) + 1]);
    std::unique_ptr<T[]> hv(new T[size_t(nnz) + 1]);
    if (nnz) {
      CUDA_CHECK(cudaMemcpy(hci.get(), ci, sizeof(int) * size_t(nnz), cudaMemcpyDeviceToHost));
      CUDA_CHECK(cudaMemcpy(hv.get(), v, sizeof(T) * size_t(nnz), cudaMemcpyDeviceToHost));
    }
    return check_spgemm(ref, rows, hrp.data(), hci.get(), hv.get(), tol);
  }
  // the reference's rows: their extents from the row pointer (an extent outside C is the check's verdict), one gather
  const size_t n = ref.rows.size();
  std::vector<long long> rws(ref.rows.begin(), ref.rows.end()), off(n + 1, 0);
  for (size_t j = 0; j < n; ++j) {
    const int64_t r = ref.rows[j];
    const long long a = hrp[size_t(r)], b = hrp[size_t(r) + 1];
    if (a < 0 || b < a || b > nnz)
      return SpgemmCheck{false, 0, "row " + std::to_string(r) + " spans entries " + std::to_string(a) + " to " + std::to_string(b) + " of C's " + std::to_string(nnz)};
    off[j + 1] = off[j] + (b - a);
  }
  const long long total = off[n];
  long long *drows = nullptr, *doff = nullptr;
  int* dci = nullptr;
  T* dv = nullptr;
  auto release = [&] { cudaFree(drows); cudaFree(doff); cudaFree(dci); cudaFree(dv); };
  std::unique_ptr<int[]> hci(new int[size_t(total) + 1]);
  std::unique_ptr<T[]> hv(new T[size_t(total) + 1]);
  try {
    CUDA_CHECK(cudaMalloc(&drows, sizeof(long long) * n));
    CUDA_CHECK(cudaMalloc(&doff, sizeof(long long) * (n + 1)));
    CUDA_CHECK(cudaMalloc(&dci, sizeof(int) * size_t(total + 1)));
    CUDA_CHECK(cudaMalloc(&dv, sizeof(T) * size_t(total + 1)));
    CUDA_CHECK(cudaMemcpy(drows, rws.data(), sizeof(long long) * n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(doff, off.data(), sizeof(long long) * (n + 1), cudaMemcpyHostToDevice));
    const unsigned blocks = unsigned((n * 32 + 255) / 256);
    k_gather_rows<T><<<blocks, 256>>>(drows, doff, (long long)n, rp, ci, v, dci, dv);
    CUDA_CHECK(cudaGetLastError());
    if (total) {
      CUDA_CHECK(cudaMemcpy(hci.get(), dci, sizeof(int) * size_t(total), cudaMemcpyDeviceToHost));
      CUDA_CHECK(cudaMemcpy(hv.get(), dv, sizeof(T) * size_t(total), cudaMemcpyDeviceToHost));
    } else {
      CUDA_CHECK(cudaDeviceSynchronize());
    }
  } catch (...) {
    release();
    throw;
  }
  release();
  return check_spgemm(ref, rows, off.data(), hci.get(), hv.get(), tol, true);
}

}  // namespace spb
