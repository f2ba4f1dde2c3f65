// Peers on cuBLAS with A stored dense (the paper's gemmBatched role; Chainer Chemistry's choice):
//   cublas-batched : cublas{S,D}gemmBatched with device pointer arrays (f16/bf16: cublasGemmBatchedEx)
//   cublas-strided : cublas{S,D}gemmStridedBatched (f16/bf16: cublasGemmStridedBatchedEx)
// gemm needs one (m, n, k) for the whole batch, so mixed batches are not applicable (the paper
// dropped cuBLAS from its mixed figure too); we do not pad, since padding would change the problem.
// TF32 stays off (CUBLAS_DEFAULT_MATH; f32 verification at 1e-4 would catch TF32 rounding).
// f16 / bf16: the Ex interface with A, B and C in the 16-bit type, CUBLAS_COMPUTE_32F (alpha and beta
// float, f32 accumulation) and CUBLAS_GEMM_DEFAULT, which runs on the tensor cores.
// flops are still 2 * nnz(A) * nb, as the paper counts them. The cuBLAS workspace is ours (tracked).
#pragma once
#include <cublas_v2.h>
#include <memory>
#include <type_traits>
#include "../common/check_libs.cuh"
#include "../common/half_types.cuh"
#include "../spmm/common.cuh"

namespace spb {

inline cublasStatus_t gemm_batched(cublasHandle_t h, int m, int n, int k, const float* al, const float* const A[], int lda, const float* const B[],
                                   int ldb, const float* be, float* const C[], int ldc, int count) {
  return cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, al, A, lda, B, ldb, be, C, ldc, count);
}
inline cublasStatus_t gemm_batched(cublasHandle_t h, int m, int n, int k, const double* al, const double* const A[], int lda, const double* const B[],
                                   int ldb, const double* be, double* const C[], int ldc, int count) {
  return cublasDgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, al, A, lda, B, ldb, be, C, ldc, count);
}
inline cublasStatus_t gemm_strided(cublasHandle_t h, int m, int n, int k, const float* al, const float* A, int lda, long long sa, const float* B,
                                   int ldb, long long sb, const float* be, float* C, int ldc, long long sc, int count) {
  return cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, al, A, lda, sa, B, ldb, sb, be, C, ldc, sc, count);
}
inline cublasStatus_t gemm_strided(cublasHandle_t h, int m, int n, int k, const double* al, const double* A, int lda, long long sa, const double* B,
                                   int ldb, long long sb, const double* be, double* C, int ldc, long long sc, int count) {
  return cublasDgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, al, A, lda, sa, B, ldb, sb, be, C, ldc, sc, count);
}

// 16-bit T (__half, __nv_bfloat16): inputs and output in T, f32 compute, scalars float.
template <typename T, typename = std::enable_if_t<sizeof(T) == 2>>
inline cublasStatus_t gemm_batched(cublasHandle_t h, int m, int n, int k, const float* al, const T* const A[], int lda, const T* const B[], int ldb,
                                   const float* be, T* const C[], int ldc, int count) {
  return cublasGemmBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, al, reinterpret_cast<const void* const*>(A), cuda_type<T>(), lda,
                             reinterpret_cast<const void* const*>(B), cuda_type<T>(), ldb, be, reinterpret_cast<void* const*>(C), cuda_type<T>(), ldc, count,
                             CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}
template <typename T, typename = std::enable_if_t<sizeof(T) == 2>>
inline cublasStatus_t gemm_strided(cublasHandle_t h, int m, int n, int k, const float* al, const T* A, int lda, long long sa, const T* B, int ldb,
                                   long long sb, const float* be, T* C, int ldc, long long sc, int count) {
  return cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, al, A, cuda_type<T>(), lda, sa, B, cuda_type<T>(), ldb, sb, be, C, cuda_type<T>(),
                                    ldc, sc, count, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

template <typename T>
class CublasPeer : public Method<T> {
 public:
  explicit CublasPeer(bool strided) : strided_(strided) {}
  ~CublasPeer() override { if (h_) cublasDestroy(h_); }
  std::string name() const override { return strided_ ? "cublas-strided" : "cublas-batched"; }
  std::string family() const override { return "peer"; }
  bool library() const override { return true; }
  std::string not_applicable(const HostBatch<T>& h, const DeviceInfo&) const override {
    if (!h.uniform) return "gemm batches need one m, n, k for every matrix; this batch is mixed (no padding: it would change the problem)";
    if (h.max_m == 0 || h.max_k == 0) return "matrices without rows or columns";
    return "";
  }
  void setup(const HostBatch<T>& h, const DeviceInfo&, cudaStream_t s) override {
    hb_ = &h;
    m_ = h.m[0]; k_ = h.k[0];
    const size_t a_elems = size_t(h.batch) * m_ * k_;
    // Dense A_i in the layout's order: row-major (ld k) or column-major (ld m).
    A_h_ = Pinned<T>(a_elems);
    std::fill(A_h_.p, A_h_.p + a_elems, T(0));
    for (int i = 0; i < h.batch; ++i)
      for (int r = 0; r < m_; ++r)
        for (int q = h.rp[h.row_off[i] + r]; q < h.rp[h.row_off[i] + r + 1]; ++q) {
          const int c = h.ci[q];
          A_h_[size_t(i) * m_ * k_ + (h.layout == Layout::Row ? size_t(r) * k_ + c : size_t(c) * m_ + r)] = h.val[q];
        }
    LIB_CHECK(cublasCreate(&h_));
    LIB_CHECK(cublasSetStream(h_, s));
    LIB_CHECK(cublasSetMathMode(h_, CUBLAS_DEFAULT_MATH));
    const size_t ws_bytes = 32u << 20;  // NVIDIA's recommended cuBLAS workspace on Hopper
    LIB_CHECK(cublasSetWorkspace(h_, this->mem.template alloc<unsigned char>(ws_bytes), ws_bytes));
    A_ = this->mem.template alloc<T>(a_elems);
    B_ = this->mem.template alloc<T>(h.B.n);
    C_ = this->mem.template alloc<T>(size_t(h.total_rows) * h.nb);
    if (!strided_) {
      ptr_h_ = Pinned<T*>(size_t(3) * h.batch);
      for (int i = 0; i < h.batch; ++i) {
        ptr_h_[i] = A_ + size_t(i) * m_ * k_;
        ptr_h_[h.batch + i] = B_ + size_t(i) * k_ * h.nb;
        ptr_h_[2 * h.batch + i] = C_ + size_t(i) * m_ * h.nb;
      }
      ptr_ = this->mem.template alloc<T*>(ptr_h_.n);
    }
    upload(s);
    this->info_n["workspace_bytes"] = double(ws_bytes);
    this->info_n["dense_a_bytes"] = double(a_elems * sizeof(T));
    this->info_s["math_mode"] = sizeof(T) == 2 ? std::string("gemm*Ex, ") + Acc<T>::name + " A/B/C, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT (tensor cores)"
                                               : "CUBLAS_DEFAULT_MATH (no TF32)";
    this->info_s["untracked"] = "cuBLAS handle's internal allocations";
  }
  void upload(cudaStream_t s) override {
    CUDA_CHECK(cudaMemcpyAsync(A_, A_h_.p, A_h_.bytes(), cudaMemcpyHostToDevice, s));
    CUDA_CHECK(cudaMemcpyAsync(B_, hb_->B.p, hb_->B.bytes(), cudaMemcpyHostToDevice, s));
    if (!strided_) CUDA_CHECK(cudaMemcpyAsync(ptr_, ptr_h_.p, ptr_h_.bytes(), cudaMemcpyHostToDevice, s));
  }
  void run(cudaStream_t s) override {
    const acc_t<T> one = 1, zero = 0;  // the compute type's scalars (float for f16/bf16)
    const int nb = hb_->nb, batch = hb_->batch;
    LIB_CHECK(cublasSetStream(h_, s));
    // Row layout: C^T = B^T A^T in cuBLAS's column-major terms; column layout: C = A B directly.
    const bool row = hb_->layout == Layout::Row;
    const int M = row ? nb : m_, N = row ? m_ : nb;
    if (strided_) {
      const T* X = row ? B_ : A_;
      const T* Y = row ? A_ : B_;
      const int ldx = row ? nb : m_, ldy = row ? k_ : k_;
      const long long sx = row ? (long long)k_ * nb : (long long)m_ * k_, sy = row ? (long long)m_ * k_ : (long long)k_ * nb;
      LIB_CHECK(gemm_strided(h_, M, N, k_, &one, X, ldx, sx, Y, ldy, sy, &zero, C_, row ? nb : m_, (long long)m_ * nb, batch));
    } else {
      T* const* Ap = ptr_;
      T* const* Bp = ptr_ + batch;
      T* const* Cp = ptr_ + 2 * batch;
      const T* const* X = const_cast<const T* const*>(row ? Bp : Ap);
      const T* const* Y = const_cast<const T* const*>(row ? Ap : Bp);
      LIB_CHECK(gemm_batched(h_, M, N, k_, &one, X, row ? nb : m_, Y, k_, &zero, Cp, row ? nb : m_, batch));
    }
  }
  T* output() override { return C_; }

 private:
  bool strided_;
  const HostBatch<T>* hb_ = nullptr;
  cublasHandle_t h_ = nullptr;
  int m_ = 0, k_ = 0;
  Pinned<T> A_h_;
  Pinned<T*> ptr_h_;
  T *A_ = nullptr, *B_ = nullptr, *C_ = nullptr;
  T** ptr_ = nullptr;
};

template <typename T>
inline void add_cublas_peers(std::vector<std::unique_ptr<Method<T>>>& v) {
  v.emplace_back(new CublasPeer<T>(true));
  v.emplace_back(new CublasPeer<T>(false));
}

}  // namespace spb
