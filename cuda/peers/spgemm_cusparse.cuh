// Peer: cuSPARSE SpGEMM through the generic API, every buffer taken from the TrackingAllocator so its
// peak is measured like ours. Algorithms: DEFAULT (= ALG1), ALG2, ALG3 (chunk fraction), and the
// cusparseSpGEMMreuse sequence. Builds only where cusparse.h exists (the GPU machine).
#pragma once
#include <cusparse.h>
#include <string>
#include <vector>
#include "../common/check_libs.cuh"
#include "../common/tracking_alloc.cuh"
#include "../spgemm/hash_kernels.cuh"

namespace spb::spgemm {

enum class CusparseAlg { Alg1, Alg2, Alg3, Reuse };

struct CusparseMethod { const char* name; CusparseAlg alg; };
inline const std::vector<CusparseMethod>& cusparse_methods() {
  static const std::vector<CusparseMethod> m = {{"cusparse-alg1", CusparseAlg::Alg1},
                                                {"cusparse-alg2", CusparseAlg::Alg2},
                                                {"cusparse-alg3", CusparseAlg::Alg3},
                                                {"cusparse-reuse", CusparseAlg::Reuse}};
  return m;
}

template <typename T>
class CusparseSpgemm {
 public:
  explicit CusparseSpgemm(cudaStream_t s) {
    LIB_CHECK(cusparseCreate(&handle_));
    LIB_CHECK(cusparseSetStream(handle_, s));
  }
  ~CusparseSpgemm() { cusparseDestroy(handle_); }
  CusparseSpgemm(const CusparseSpgemm&) = delete;
  CusparseSpgemm& operator=(const CusparseSpgemm&) = delete;

  int version() const { int v = 0; cusparseGetVersion(handle_, &v); return v; }

  // C = A * B, C allocated through `al`; descriptors and work buffers released before returning (also on error).
  void run(CusparseAlg alg, const DevCsr<T>& A, const DevCsr<T>& B, DevCsr<T>& C, TrackingAllocator& al, float chunk_fraction) {
    Scope sc{al};
    const cudaDataType vt = sizeof(T) == 4 ? CUDA_R_32F : CUDA_R_64F;
    C = DevCsr<T>{};
    C.rows = A.rows; C.cols = B.cols;
    C.rp = al.alloc<int>(size_t(A.rows) + 1);
    LIB_CHECK(cusparseCreateCsr(&sc.a, A.rows, A.cols, A.nnz, A.rp, A.ci, A.v, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, vt));
    LIB_CHECK(cusparseCreateCsr(&sc.b, B.rows, B.cols, B.nnz, B.rp, B.ci, B.v, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, vt));
    LIB_CHECK(cusparseCreateCsr(&sc.c, A.rows, B.cols, 0, C.rp, nullptr, nullptr, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, vt));
    LIB_CHECK(cusparseSpGEMM_createDescr(&sc.d));
    const T alpha = 1, beta = 0;
    const cusparseOperation_t op = CUSPARSE_OPERATION_NON_TRANSPOSE;
    size_t s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0;
    if (alg == CusparseAlg::Reuse) {
      const cusparseSpGEMMAlg_t ra = CUSPARSE_SPGEMM_DEFAULT;
      LIB_CHECK(cusparseSpGEMMreuse_workEstimation(handle_, op, op, sc.a, sc.b, sc.c, ra, sc.d, &s1, nullptr));
      void* b1 = sc.buf(s1);
      LIB_CHECK(cusparseSpGEMMreuse_workEstimation(handle_, op, op, sc.a, sc.b, sc.c, ra, sc.d, &s1, b1));
      LIB_CHECK(cusparseSpGEMMreuse_nnz(handle_, op, op, sc.a, sc.b, sc.c, ra, sc.d, &s2, nullptr, &s3, nullptr, &s4, nullptr));
      void* b2 = sc.buf(s2); void* b3 = sc.buf(s3); void* b4 = sc.buf(s4);
      LIB_CHECK(cusparseSpGEMMreuse_nnz(handle_, op, op, sc.a, sc.b, sc.c, ra, sc.d, &s2, b2, &s3, b3, &s4, b4));
      sc.drop(b1); sc.drop(b2);
      alloc_output(sc, C, al);
      LIB_CHECK(cusparseSpGEMMreuse_copy(handle_, op, op, sc.a, sc.b, sc.c, ra, sc.d, &s5, nullptr));
      void* b5 = sc.buf(s5);
      LIB_CHECK(cusparseSpGEMMreuse_copy(handle_, op, op, sc.a, sc.b, sc.c, ra, sc.d, &s5, b5));
      sc.drop(b3);
      LIB_CHECK(cusparseSpGEMMreuse_compute(handle_, op, op, &alpha, sc.a, sc.b, &beta, sc.c, vt, ra, sc.d));
      return;  // b4, b5 freed by the scope
    }
    const cusparseSpGEMMAlg_t ca = alg == CusparseAlg::Alg1 ? CUSPARSE_SPGEMM_DEFAULT
                                 : alg == CusparseAlg::Alg2 ? CUSPARSE_SPGEMM_ALG2 : CUSPARSE_SPGEMM_ALG3;
    LIB_CHECK(cusparseSpGEMM_workEstimation(handle_, op, op, &alpha, sc.a, sc.b, &beta, sc.c, vt, ca, sc.d, &s1, nullptr));
    void* b1 = sc.buf(s1);
    LIB_CHECK(cusparseSpGEMM_workEstimation(handle_, op, op, &alpha, sc.a, sc.b, &beta, sc.c, vt, ca, sc.d, &s1, b1));
    void* b2 = nullptr;
    if (alg == CusparseAlg::Alg1) {
      LIB_CHECK(cusparseSpGEMM_compute(handle_, op, op, &alpha, sc.a, sc.b, &beta, sc.c, vt, ca, sc.d, &s2, nullptr));
      b2 = sc.buf(s2);
    } else {
      LIB_CHECK(cusparseSpGEMM_estimateMemory(handle_, op, op, &alpha, sc.a, sc.b, &beta, sc.c, vt, ca, sc.d, chunk_fraction, &s3, nullptr, nullptr));
      void* b3 = sc.buf(s3);
      LIB_CHECK(cusparseSpGEMM_estimateMemory(handle_, op, op, &alpha, sc.a, sc.b, &beta, sc.c, vt, ca, sc.d, chunk_fraction, &s3, b3, &s2));
      sc.drop(b3);
      b2 = sc.buf(s2);
    }
    LIB_CHECK(cusparseSpGEMM_compute(handle_, op, op, &alpha, sc.a, sc.b, &beta, sc.c, vt, ca, sc.d, &s2, b2));
    alloc_output(sc, C, al);
    LIB_CHECK(cusparseSpGEMM_copy(handle_, op, op, &alpha, sc.a, sc.b, &beta, sc.c, vt, ca, sc.d));
  }

 private:
  // Descriptors and work buffers of one call, released on every exit path.
  struct Scope {
    TrackingAllocator& al;
    cusparseSpMatDescr_t a = nullptr, b = nullptr, c = nullptr;
    cusparseSpGEMMDescr_t d = nullptr;
    std::vector<void*> bufs;
    void* buf(size_t n) { void* p = al.raw(n); bufs.push_back(p); return p; }
    void drop(void* p) { for (auto& q : bufs) if (q == p) { al.free(p); q = nullptr; } }
    ~Scope() {
      for (void* p : bufs) if (p) al.free(p);
      if (d) cusparseSpGEMM_destroyDescr(d);
      if (a) cusparseDestroySpMat(a);
      if (b) cusparseDestroySpMat(b);
      if (c) cusparseDestroySpMat(c);
    }
  };

  void alloc_output(Scope& sc, DevCsr<T>& C, TrackingAllocator& al) {
    int64_t r = 0, c = 0, nnz = 0;
    LIB_CHECK(cusparseSpMatGetSize(sc.c, &r, &c, &nnz));
    C.nnz = nnz;
    C.ci = al.alloc<int>(size_t(nnz));
    C.v = al.alloc<T>(size_t(nnz));
    LIB_CHECK(cusparseCsrSetPointers(sc.c, C.rp, C.ci, C.v));
  }

  cusparseHandle_t handle_ = nullptr;
};

}  // namespace spb::spgemm
