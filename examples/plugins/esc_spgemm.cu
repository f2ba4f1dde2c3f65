// Example SpGEMM plugin: expand, sort, compress, built on CUB.
//   1. count the products of each row of A (sum of B's row lengths over the row's nonzeros), scan them;
//   2. expand: every product a_ik * b_kj becomes a (key = row * b_cols + j, value) pair;
//   3. sort the pairs by key (cub::DeviceRadixSort::SortPairs, only the key bits that are used);
//   4. compress: sum runs of equal keys (cub::DeviceReduce::ReduceByKey) - the unique keys are C's
//      entries in row order with sorted columns;
//   5. C's row pointer: count entries per row, exclusive scan (cub::DeviceScan).
// Simple and memory-hungry (O(products) temporaries): a baseline to compare hash SpGEMM against.
// Every buffer, CUB's temporary storage included, comes from p.alloc, so spbench counts it.
#include <cub/cub.cuh>
#include <spbench_plugin.h>

namespace {

__global__ void count_products(int rows, const int* __restrict__ arp, const int* __restrict__ aci, const int* __restrict__ brp, long long* __restrict__ cnt) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  long long n = 0;
  for (int q = arp[r]; q < arp[r + 1]; ++q) n += brp[aci[q] + 1] - brp[aci[q]];
  cnt[r] = n;
}

// One warp per row of A writes that row's products at its offset.
template <typename T>
__global__ void expand(int rows, int b_cols, const int* __restrict__ arp, const int* __restrict__ aci, const T* __restrict__ av,
                       const int* __restrict__ brp, const int* __restrict__ bci, const T* __restrict__ bv, const long long* __restrict__ off,
                       unsigned long long* __restrict__ keys, T* __restrict__ vals) {
  const int r = int((blockIdx.x * size_t(blockDim.x) + threadIdx.x) / 32), lane = threadIdx.x % 32;
  if (r >= rows) return;
  long long o = off[r];
  for (int q = arp[r]; q < arp[r + 1]; ++q) {
    const int k = aci[q];
    const T a = av[q];
    const int s = brp[k], n = brp[k + 1] - s;
    for (int t = lane; t < n; t += 32) {
      keys[o + t] = (unsigned long long)r * (unsigned long long)b_cols + (unsigned long long)bci[s + t];
      vals[o + t] = a * bv[s + t];
    }
    o += n;
  }
}

__global__ void split_keys(long long n, int b_cols, const unsigned long long* __restrict__ keys, int* __restrict__ cols, int* __restrict__ row_count) {
  const long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (e >= n) return;
  const unsigned long long k = keys[e];
  cols[e] = int(k % (unsigned long long)b_cols);
  atomicAdd(&row_count[k / (unsigned long long)b_cols], 1);
}

struct Sum { template <typename T> __device__ T operator()(const T& a, const T& b) const { return a + b; } };

int bits_for(unsigned long long x) { int b = 0; while (b < 64 && (x >> b) != 0) ++b; return b < 1 ? 1 : b; }

template <typename T>
spbench::Result product(const spbench::SpgemmProblem& p, spbench::SpgemmOutput& c) {
  const spbench::Allocator& A = p.alloc;
  cudaStream_t s = p.stream;
  const int rows = p.a_rows;
  SPBENCH_TRY_CUDA(cudaMemsetAsync(c.c_row_ptr, 0, sizeof(int) * (size_t(rows) + 1), s));
  c.c_nnz = 0;
  if (rows == 0 || p.a_nnz == 0 || p.b_nnz == 0) return spbench::ok();
  if ((unsigned long long)rows * (unsigned long long)p.b_cols >= (1ull << 63)) return spbench::not_applicable("rows x columns of C exceed a 63-bit key");

  // 1. products per row and their offsets
  long long* cnt = A.allocate<long long>(size_t(rows) + 1);
  if (!cnt) return spbench::error("out of device memory (product counts)");
  count_products<<<(rows + 255) / 256, 256, 0, s>>>(rows, p.a_row_ptr, p.a_col_idx, p.b_row_ptr, cnt);
  SPBENCH_TRY_CUDA(cudaGetLastError());
  SPBENCH_TRY_CUDA(cudaMemsetAsync(cnt + rows, 0, sizeof(long long), s));
  size_t tmp_bytes = 0;
  SPBENCH_TRY_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, tmp_bytes, cnt, cnt, rows + 1, s));
  void* tmp = A.allocate_bytes(tmp_bytes);
  if (!tmp) return spbench::error("out of device memory (scan storage)");
  SPBENCH_TRY_CUDA(cub::DeviceScan::ExclusiveSum(tmp, tmp_bytes, cnt, cnt, rows + 1, s));
  A.free(tmp);
  long long total = 0;  // the number of products decides every later size: one copy to the host
  SPBENCH_TRY_CUDA(cudaMemcpyAsync(&total, cnt + rows, sizeof total, cudaMemcpyDeviceToHost, s));
  SPBENCH_TRY_CUDA(cudaStreamSynchronize(s));
  if (total == 0) { A.free(cnt); return spbench::ok(); }
  if (total > (1ll << 31) - 1) { A.free(cnt); return spbench::not_applicable("%lld intermediate products exceed CUB's int item count", total); }

  // 2. expand
  unsigned long long* keys = A.allocate<unsigned long long>(size_t(total));
  unsigned long long* keys_sorted = A.allocate<unsigned long long>(size_t(total));
  T* vals = A.allocate<T>(size_t(total));
  T* vals_sorted = A.allocate<T>(size_t(total));
  if (!keys || !keys_sorted || !vals || !vals_sorted) return spbench::error("out of device memory (%lld products)", total);
  expand<T><<<unsigned((size_t(rows) * 32 + 255) / 256), 256, 0, s>>>(rows, p.b_cols, p.a_row_ptr, p.a_col_idx, p.a_values_as<T>(), p.b_row_ptr,
                                                                   p.b_col_idx, p.b_values_as<T>(), cnt, keys, vals);
  SPBENCH_TRY_CUDA(cudaGetLastError());
  A.free(cnt);

  // 3. sort by key
  const int end_bit = bits_for((unsigned long long)rows * (unsigned long long)p.b_cols - 1);
  tmp_bytes = 0;
  SPBENCH_TRY_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, tmp_bytes, keys, keys_sorted, vals, vals_sorted, int(total), 0, end_bit, s));
  tmp = A.allocate_bytes(tmp_bytes);
  if (!tmp) return spbench::error("out of device memory (sort storage)");
  SPBENCH_TRY_CUDA(cub::DeviceRadixSort::SortPairs(tmp, tmp_bytes, keys, keys_sorted, vals, vals_sorted, int(total), 0, end_bit, s));
  A.free(tmp);

  // 4. compress equal keys (reuse the unsorted buffers for the unique keys and sums)
  int* d_unique = A.allocate<int>(1);
  if (!d_unique) return spbench::error("out of device memory");
  tmp_bytes = 0;
  SPBENCH_TRY_CUDA(cub::DeviceReduce::ReduceByKey(nullptr, tmp_bytes, keys_sorted, keys, vals_sorted, vals, d_unique, Sum{}, int(total), s));
  tmp = A.allocate_bytes(tmp_bytes);
  if (!tmp) return spbench::error("out of device memory (reduce storage)");
  SPBENCH_TRY_CUDA(cub::DeviceReduce::ReduceByKey(tmp, tmp_bytes, keys_sorted, keys, vals_sorted, vals, d_unique, Sum{}, int(total), s));
  A.free(tmp);
  int nnz = 0;
  SPBENCH_TRY_CUDA(cudaMemcpyAsync(&nnz, d_unique, sizeof nnz, cudaMemcpyDeviceToHost, s));
  SPBENCH_TRY_CUDA(cudaStreamSynchronize(s));
  A.free(d_unique);
  A.free(keys_sorted);
  A.free(vals_sorted);

  // 5. C: columns, values, row pointer
  c.c_col_idx = A.allocate<int>(size_t(nnz));
  c.c_values = A.allocate<T>(size_t(nnz));
  if (!c.c_col_idx || !c.c_values) return spbench::error("out of device memory (C, %d entries)", nnz);
  SPBENCH_TRY_CUDA(cudaMemcpyAsync(c.c_values, vals, sizeof(T) * size_t(nnz), cudaMemcpyDeviceToDevice, s));
  split_keys<<<unsigned((nnz + 255) / 256), 256, 0, s>>>(nnz, p.b_cols, keys, c.c_col_idx, c.c_row_ptr);
  SPBENCH_TRY_CUDA(cudaGetLastError());
  tmp_bytes = 0;
  SPBENCH_TRY_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, tmp_bytes, c.c_row_ptr, c.c_row_ptr, rows + 1, s));
  tmp = A.allocate_bytes(tmp_bytes);
  if (!tmp) return spbench::error("out of device memory (scan storage)");
  SPBENCH_TRY_CUDA(cub::DeviceScan::ExclusiveSum(tmp, tmp_bytes, c.c_row_ptr, c.c_row_ptr, rows + 1, s));
  A.free(tmp);
  A.free(keys);
  A.free(vals);
  c.c_nnz = nnz;
  return spbench::ok();
}

spbench::Result compute(const spbench::SpgemmProblem& p, void*, spbench::SpgemmOutput& c) {
  return p.value_type == spbench::ValueType::F32 ? product<float>(p, c) : product<double>(p, c);
}

}  // namespace

SPBENCH_SPGEMM_PLUGIN(R"spbench({
  "name": "cub-esc",
  "op": "spgemm",
  "description": "expand, radix-sort, reduce-by-key (CUB)",
  "precisions": ["f32", "f64"],
  "setup": false
})spbench", nullptr, compute, nullptr)
