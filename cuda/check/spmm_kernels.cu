// CI compile check (nvcc -c, CUDA runtime headers only): every SpMM kernel of ours and the paper's,
// and the TensorFlow-style peer, instantiated for float and double and both layouts.
#include "../spmm/methods.cuh"
#include "../peers/spmm_tf.cuh"

namespace spb {
#define SPB_INST(T, L)                                                                   \
  template __global__ void swa_coo_global_kernel<T, L>(BatchView<T>, int, int);          \
  template __global__ void swa_csr_kernel<T, L, false>(BatchView<T>, int, int, int, int, int, int); \
  template __global__ void swa_csr_kernel<T, L, true>(BatchView<T>, int, int, int, int, int, int);  \
  template __global__ void swa_coo_shared_kernel<T, L>(BatchView<T>, int, int, int, int); \
  template __global__ void csr_vec_kernel<T, L, 1>(BatchView<T>, int, unsigned);         \
  template __global__ void tf_sparse_dense_kernel<T, L>(BatchView<T>, int);
SPB_INST(float, Layout::Row)
SPB_INST(float, Layout::Col)
SPB_INST(double, Layout::Row)
SPB_INST(double, Layout::Col)
template __global__ void csr_vec_kernel<float, Layout::Row, 4>(BatchView<float>, int, unsigned);
template __global__ void csr_vec_kernel<double, Layout::Row, 2>(BatchView<double>, int, unsigned);
template __global__ void csr_flat_kernel<float, 1, 1>(const int*, const int*, const float*, const float*, float*, int, int, unsigned);
template __global__ void csr_flat_kernel<float, 4, 1>(const int*, const int*, const float*, const float*, float*, int, int, unsigned);
template __global__ void csr_flat_kernel<double, 1, 1>(const int*, const int*, const double*, const double*, double*, int, int, unsigned);
template __global__ void csr_flat_kernel<double, 2, 1>(const int*, const int*, const double*, const double*, double*, int, int, unsigned);
template __global__ void csr_flat_kernel<float, 4, 2>(const int*, const int*, const float*, const float*, float*, int, int, unsigned);
template __global__ void csr_flat_kernel<double, 2, 2>(const int*, const int*, const double*, const double*, double*, int, int, unsigned);
#undef SPB_INST
// Host wrappers too (they hold the launch logic).
template class SwaCooGlobal<float>;
template class SwaCooGlobal<double>;
template class SwaCsr<float>;
template class SwaCsr<double>;
template class SwaCooShared<float>;
template class SwaCooShared<double>;
template class CsrVec<float>;
template class CsrVec<double>;
template class EllFlat<float>;
template class EllFlat<double>;
template class TfSparseDense<float>;
template class TfSparseDense<double>;
}  // namespace spb
