// CI compile check (nvcc -c, CUDA runtime headers only): every SpMM kernel of ours and the paper's,
// and the TensorFlow-style peer, instantiated for float and double and both layouts (column-major and
// staged kernels with several slot counts / columns per thread), and for __half and __nv_bfloat16
// (f32 accumulation, 8-wide vectors); batched-tile for each of its three job heights, one-panel and multi-panel (MP)
// (its 16-bit 64-row-chunk kernels through the host wrapper);
// batched-split's kernels through its host wrapper (every S and NV it launches); batched-slab's (each BN
// and layout) likewise.
#include "../common/half_types.cuh"
#include "../spmm/methods.cuh"
#include "../peers/spmm_tf.cuh"

namespace spb {
#define SPB_INST(T, L)                                                                   \
  template __global__ void swa_coo_global_kernel<T, L>(BatchView<T>, int, int);          \
  template __global__ void swa_csr_kernel<T, L, false>(BatchView<T>, int, int, int, int, int, int); \
  template __global__ void swa_csr_kernel<T, L, true>(BatchView<T>, int, int, int, int, int, int);  \
  template __global__ void swa_coo_shared_kernel<T, L>(BatchView<T>, int, int, int, int); \
  template __global__ void csr_vec_kernel<T, L, 1>(BatchView<T>, int, unsigned);         \
  template __global__ void tf_sparse_dense_kernel<T, L>(BatchView<T>, int);               \
  template __global__ void tile_kernel<T, L, 16, false>(const TileJob*, const int*, const int*, const T*, const T*, T*, int, int, int, int, int, acc_t<T>*, int*); \
  template __global__ void tile_kernel<T, L, 16, true>(const TileJob*, const int*, const int*, const T*, const T*, T*, int, int, int, int, int, acc_t<T>*, int*); \
  template __global__ void tile_kernel<T, L, 32, false>(const TileJob*, const int*, const int*, const T*, const T*, T*, int, int, int, int, int, acc_t<T>*, int*); \
  template __global__ void tile_kernel<T, L, 32, true>(const TileJob*, const int*, const int*, const T*, const T*, T*, int, int, int, int, int, acc_t<T>*, int*); \
  template __global__ void tile_kernel<T, L, 64, false>(const TileJob*, const int*, const int*, const T*, const T*, T*, int, int, int, int, int, acc_t<T>*, int*); \
  template __global__ void tile_kernel<T, L, 64, true>(const TileJob*, const int*, const int*, const T*, const T*, T*, int, int, int, int, int, acc_t<T>*, int*);
#define SPB_COL(T, K)                                                                                                             \
  template __global__ void col_kernel<T, K, 1>(const int*, const int4*, const int*, const int*, const T*, const T*, T*, int, int, FastDiv, int, FastDiv, FastDiv); \
  template __global__ void col_kernel<T, K, 2>(const int*, const int4*, const int*, const int*, const T*, const T*, T*, int, int, FastDiv, int, FastDiv, FastDiv); \
  template __global__ void col_kernel<T, K, 4>(const int*, const int4*, const int*, const int*, const T*, const T*, T*, int, int, FastDiv, int, FastDiv, FastDiv);
SPB_COL(float, 0)
SPB_COL(float, 3)
SPB_COL(double, 0)
SPB_COL(double, 8)
#define SPB_STAGED(T, V)                                                                                                                                    \
  template __global__ void staged_row_kernel<T, Layout::Row, V>(const int*, const int*, const int*, const StagedNz<T>*, const T*, T*, int, int, int, int, int, int); \
  template __global__ void staged_row_kernel<T, Layout::Col, V>(const int*, const int*, const int*, const StagedNz<T>*, const T*, T*, int, int, int, int, int, int);
#define SPB_STAGED_COL(T) template __global__ void staged_col_kernel<T>(const int*, const int*, const int*, const int*, const T*, const T*, T*, int, int, int);
SPB_STAGED(float, 1)
SPB_STAGED(float, 2)
SPB_STAGED(float, 4)
SPB_STAGED(double, 1)
SPB_STAGED(double, 2)
SPB_STAGED_COL(float)
SPB_STAGED_COL(double)
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
// 16-bit values
#define SPB_HALF(T)                                                                                                      \
  SPB_INST(T, Layout::Row)                                                                                               \
  SPB_INST(T, Layout::Col)                                                                                               \
  SPB_COL(T, 0)                                                                                                          \
  SPB_COL(T, 8)                                                                                                          \
  template __global__ void csr_vec_kernel<T, Layout::Row, 8>(BatchView<T>, int, unsigned);                               \
  template __global__ void csr_flat_kernel<T, 8, 2>(const int*, const int*, const T*, const T*, T*, int, int, unsigned); \
  SPB_STAGED(T, 1)                                                                                                       \
  SPB_STAGED(T, 8)                                                                                                       \
  SPB_STAGED_COL(T)
SPB_HALF(__half)
SPB_HALF(__nv_bfloat16)
#undef SPB_HALF
#undef SPB_INST
#undef SPB_COL
#undef SPB_STAGED
#undef SPB_STAGED_COL
// Host wrappers too (they hold the launch logic).
#define SPB_HOST(T)                  \
  template class SwaCooGlobal<T>;    \
  template class SwaCsr<T>;          \
  template class SwaCooShared<T>;    \
  template class CsrVec<T>;          \
  template class EllFlat<T>;         \
  template class ColMajor<T>;        \
  template class SplitRows<T>;       \
  template class Staged<T>;          \
  template class Tile<T>;            \
  template class Slab<T>;            \
  template class MmaTiles<T>;        \
  template class Auto<T>;            \
  template class TfSparseDense<T>;
SPB_HOST(float)
SPB_HOST(double)
SPB_HOST(__half)
SPB_HOST(__nv_bfloat16)
#undef SPB_HOST
}  // namespace spb
