// Peer: TensorFlow-style SparseTensorDenseMatMul (paper Fig. 2): one thread per nonzero x column,
// global atomics; non-batched, so one memset + one launch per matrix.
#pragma once
#include "../spmm/methods.cuh"

namespace spb {

template <typename T, Layout L>
__global__ void tf_sparse_dense_kernel(BatchView<T> v, int mat) {
  const int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const int nz0 = v.nnz_off[mat], nnz = v.nnz_off[mat + 1] - nz0, nb = v.nb;
  if (i >= int64_t(nnz) * nb) return;
  const int nz = int(i / nb), j = int(i % nb);
  const int m = v.row_off[mat + 1] - v.row_off[mat], k = v.col_off[mat + 1] - v.col_off[mat];
  const T* B = v.B + int64_t(v.col_off[mat]) * nb;
  T* C = v.C + int64_t(v.row_off[mat]) * nb;
  atomicAdd(&C[didx<L>(v.coo_r[nz0 + nz], j, m, nb)], narrow<T>(widen(v.coo_v[nz0 + nz]) * widen(B[didx<L>(v.coo_c[nz0 + nz], j, k, nb)])));
}

template <typename T>
class TfSparseDense : public KernelMethod<T> {
 public:
  TfSparseDense() : KernelMethod<T>("tf-sparse-dense", "peer", DeviceBatch<T>::kCoo) {}
  std::string not_applicable(const HostBatch<T>&, const DeviceInfo&) const override { return atomics_16bit_na<T>(); }
  void run(cudaStream_t s) override {
    const HostBatch<T>& h = *this->h_;
    with_layout(h.layout, [&](auto L) {
      for (int i = 0; i < h.batch; ++i) {
        const size_t c_bytes = size_t(h.m[i]) * h.nb * sizeof(T);
        if (c_bytes) CUDA_CHECK(cudaMemsetAsync(this->d_.v.C + int64_t(h.row_off[i]) * h.nb, 0, c_bytes, s));
        const int64_t threads = int64_t(h.nnz[i]) * h.nb;
        if (threads == 0) continue;
        tf_sparse_dense_kernel<T, decltype(L)::value><<<ceil_div(threads, 256), 256, 0, s>>>(this->d_.v, i);
        CUDA_CHECK_LAUNCH();
      }
    });
  }
};

}  // namespace spb
