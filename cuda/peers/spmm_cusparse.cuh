// Peers on cuSPARSE (generic API, cusparseSpMM), on the same data as our kernels:
//   cusparse-loop      : one cusparseSpMM per matrix (the paper's non-batched csrmm/csrmm2 role)
//   cusparse-strided   : one cusparseSpMM with strided batches (uniform batches only)
//   cusparse-blockdiag : one cusparseSpMM on the block-diagonal matrix of the whole batch (row layout)
// Each picks the fastest of DEFAULT / CSR_ALG1 / CSR_ALG2 / CSR_ALG3 by timing them in setup and
// reports the choice (and each trial) in info.
// f16 / bf16: A, B and C in the 16-bit type (CUDA_R_16F / CUDA_R_16BF), compute type CUDA_R_32F (alpha
// and beta float), cuSPARSE's mixed-precision SpMM; an algorithm that refuses the combination is a failed
// trial, and a peer whose every algorithm refuses (CUSPARSE_STATUS_NOT_SUPPORTED; for 16-bit values also
// CUSPARSE_STATUS_INVALID_VALUE, which some versions answer for a type combination) is not applicable.
#pragma once
#include <cusparse.h>
#include <iterator>
#include <memory>
#include "../common/check_libs.cuh"
#include "../common/half_types.cuh"
#include "../common/timing.cuh"
#include "../spmm/common.cuh"

namespace spb {

// Mean device time of `reps` calls of f (after one untimed call), in microseconds.
template <typename F>
inline double time_calls_us(cudaStream_t s, int reps, F&& f) {
  f();
  cudaEvent_t a, b;
  CUDA_CHECK(cudaEventCreate(&a));
  CUDA_CHECK(cudaEventCreate(&b));
  const double ms = spb::timed_ms(s, a, b, reps, f);
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return 1000.0 * ms;
}

// One SpMM problem for cuSPARSE: descriptors of A_i, B_i, C_i (one entry per call).
struct SpmmCall {
  cusparseSpMatDescr_t A = nullptr;
  cusparseDnMatDescr_t B = nullptr, C = nullptr;
};

template <typename T>
class CusparsePeer : public Method<T> {
 public:
  enum Kind { Loop, Strided, BlockDiag };
  explicit CusparsePeer(Kind k) : kind_(k) {}
  ~CusparsePeer() override {
    for (SpmmCall& c : calls_) { if (c.A) cusparseDestroySpMat(c.A); if (c.B) cusparseDestroyDnMat(c.B); if (c.C) cusparseDestroyDnMat(c.C); }
    if (h_) cusparseDestroy(h_);
  }
  std::string name() const override { return kind_ == Loop ? "cusparse-loop" : kind_ == Strided ? "cusparse-strided" : "cusparse-blockdiag"; }
  std::string family() const override { return "peer"; }
  bool library() const override { return true; }
  std::string not_applicable(const HostBatch<T>& h, const DeviceInfo&) const override {
    if (kind_ == Strided && !h.uniform) return "strided batches need the same rows, columns and nnz in every matrix; this batch is mixed";
    if (kind_ == Strided && h.max_nnz == 0) return "strided batch of matrices without nonzeros";
    if (kind_ == BlockDiag && h.layout == Layout::Col)
      return "column-major B_i stacked per matrix is not one column-major matrix; the block-diagonal product needs row layout";
    return "";
  }
  void setup(const HostBatch<T>& h, const DeviceInfo&, cudaStream_t s) override {
    hb_ = &h;
    LIB_CHECK(cusparseCreate(&h_));
    LIB_CHECK(cusparseSetStream(h_, s));
    build_host(h);
    rp_ = this->mem.template alloc<int>(rp_h_.n);
    ci_ = this->mem.template alloc<int>(ci_h_.n);
    val_ = this->mem.template alloc<T>(h.val.n);
    B_ = this->mem.template alloc<T>(h.B.n);
    C_ = this->mem.template alloc<T>(size_t(h.total_rows) * h.nb);
    upload(s);
    describe(h);
    choose_alg(s);
  }
  void upload(cudaStream_t s) override {
    CUDA_CHECK(cudaMemcpyAsync(rp_, rp_h_.p, rp_h_.bytes(), cudaMemcpyHostToDevice, s));
    if (ci_h_.n) CUDA_CHECK(cudaMemcpyAsync(ci_, ci_h_.p, ci_h_.bytes(), cudaMemcpyHostToDevice, s));
    if (hb_->val.n) CUDA_CHECK(cudaMemcpyAsync(val_, hb_->val.p, hb_->val.bytes(), cudaMemcpyHostToDevice, s));
    CUDA_CHECK(cudaMemcpyAsync(B_, hb_->B.p, hb_->B.bytes(), cudaMemcpyHostToDevice, s));
  }
  void run(cudaStream_t s) override { run_alg(s, alg_, buf_); }
  T* output() override { return C_; }

 private:
  void build_host(const HostBatch<T>& h) {
    // Loop/Strided: each matrix's own row pointer (m_i + 1 entries, local); BlockDiag: the absolute one.
    // BlockDiag also shifts columns by col_off[i] so that B stacked is the block-diagonal's dense operand.
    if (kind_ == BlockDiag) {
      rp_h_ = Pinned<int>(h.rp.n);
      std::copy(h.rp.p, h.rp.p + h.rp.n, rp_h_.p);
      ci_h_ = Pinned<int>(h.ci.n);
      for (int i = 0; i < h.batch; ++i)
        for (int q = h.nnz_off[i]; q < h.nnz_off[i + 1]; ++q) ci_h_[q] = h.ci[q] + h.col_off[i];
    } else {
      rp_h_ = Pinned<int>(size_t(h.total_rows) + h.batch);
      for (int i = 0; i < h.batch; ++i)
        for (int r = 0; r <= h.m[i]; ++r) rp_h_[h.row_off[i] + i + r] = h.rp[h.row_off[i] + r] - h.nnz_off[i];
      ci_h_ = Pinned<int>(h.ci.n);
      std::copy(h.ci.p, h.ci.p + h.ci.n, ci_h_.p);
    }
  }
  void add_call(int64_t m, int64_t k, int64_t nnz, int* rp, int* ci, T* val, T* B, T* C) {
    const cudaDataType dt = cuda_type<T>();
    const bool row = hb_->layout == Layout::Row;
    const int nb = hb_->nb;
    SpmmCall c;
    calls_.push_back(c);  // pushed first so the destructor frees whatever got created
    SpmmCall& x = calls_.back();
    LIB_CHECK(cusparseCreateCsr(&x.A, m, k, nnz, rp, ci, val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, dt));
    LIB_CHECK(cusparseCreateDnMat(&x.B, k, nb, row ? nb : k, B, dt, row ? CUSPARSE_ORDER_ROW : CUSPARSE_ORDER_COL));
    LIB_CHECK(cusparseCreateDnMat(&x.C, m, nb, row ? nb : m, C, dt, row ? CUSPARSE_ORDER_ROW : CUSPARSE_ORDER_COL));
  }
  void describe(const HostBatch<T>& h) {
    if (kind_ == BlockDiag) {
      add_call(h.total_rows, h.total_cols, h.total_nnz, rp_, ci_, val_, B_, C_);
    } else if (kind_ == Strided) {
      add_call(h.m[0], h.k[0], h.nnz[0], rp_, ci_, val_, B_, C_);
      LIB_CHECK(cusparseCsrSetStridedBatch(calls_[0].A, h.batch, h.m[0] + 1, h.nnz[0]));
      LIB_CHECK(cusparseDnMatSetStridedBatch(calls_[0].B, h.batch, int64_t(h.k[0]) * h.nb));
      LIB_CHECK(cusparseDnMatSetStridedBatch(calls_[0].C, h.batch, int64_t(h.m[0]) * h.nb));
    } else {
      for (int i = 0; i < h.batch; ++i) {
        loop_mat_.push_back(i);
        add_call(h.m[i], h.k[i], h.nnz[i], rp_ + h.row_off[i] + i, ci_ + h.nnz_off[i], val_ + h.nnz_off[i],
                 B_ + int64_t(h.col_off[i]) * h.nb, C_ + int64_t(h.row_off[i]) * h.nb);
      }
    }
  }
  // cuSPARSE is given no work where a matrix has no rows; a matrix without nonzeros gets C_i = 0 by
  // a memset (what a caller of the non-batched API does), so the loop never depends on nnz = 0 support.
  void run_alg(cudaStream_t s, cusparseSpMMAlg_t alg, void* buf) {
    const acc_t<T> one = 1, zero = 0;
    LIB_CHECK(cusparseSetStream(h_, s));
    for (size_t c = 0; c < calls_.size(); ++c) {
      if (kind_ == Loop) {
        const int i = loop_mat_[c];
        if (hb_->m[i] == 0) continue;
        if (hb_->nnz[i] == 0) {
          CUDA_CHECK(cudaMemsetAsync(C_ + int64_t(hb_->row_off[i]) * hb_->nb, 0, size_t(hb_->m[i]) * hb_->nb * sizeof(T), s));
          continue;
        }
      }
      LIB_CHECK(cusparseSpMM(h_, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, calls_[c].A, calls_[c].B, &zero,
                                  calls_[c].C, cuda_type<acc_t<T>>(), alg, buf));
    }
  }
  size_t buffer_size(cusparseSpMMAlg_t alg) {
    const acc_t<T> one = 1, zero = 0;
    size_t best = 0;
    for (size_t c = 0; c < calls_.size(); ++c) {
      if (kind_ == Loop && (hb_->m[loop_mat_[c]] == 0 || hb_->nnz[loop_mat_[c]] == 0)) continue;
      size_t sz = 0;
      LIB_CHECK(cusparseSpMM_bufferSize(h_, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, calls_[c].A, calls_[c].B,
                                             &zero, calls_[c].C, cuda_type<acc_t<T>>(), alg, &sz));
      best = std::max(best, sz);
    }
    return best;
  }
  // Times each algorithm (scratch buffers untracked: tuning is not the method's footprint), each after its
  // cusparseSpMM_preprocess as the timed runs have it (without it, CSR_ALG3's trial redid its analysis
  // every call: H100, batch 100 of d256, 32 a row, nB 16, block-diagonal: trial 44.9 us, timed after the
  // preprocess 15.5 us, so runs whose trials it lost narrowly left the peer up to 3x slower than it can
  // be), then allocates the chosen one's buffer through the tracker.
  void choose_alg(cudaStream_t s) {
    const std::pair<cusparseSpMMAlg_t, const char*> algs[] = {
        {CUSPARSE_SPMM_ALG_DEFAULT, "DEFAULT"}, {CUSPARSE_SPMM_CSR_ALG1, "CSR_ALG1"}, {CUSPARSE_SPMM_CSR_ALG2, "CSR_ALG2"}, {CUSPARSE_SPMM_CSR_ALG3, "CSR_ALG3"}};
    double best = 1e300;
    std::string trials;
    int refused = 0;  // trials refused for the combination (see the comment at the top)
    const int reps = kind_ == Loop && hb_->batch > 1000 ? 1 : 5;
    for (auto& a : algs) {
      void* scratch = nullptr;
      try {
        const size_t sz = buffer_size(a.first);
        if (sz) CUDA_CHECK(cudaMalloc(&scratch, sz));
        if (kind_ != Loop) preprocess_calls(a.first, scratch);  // a failure leaves the analysis to the calls, as before
        const double us = time_calls_us(s, reps, [&] { run_alg(s, a.first, scratch); });
        trials += std::string(trials.empty() ? "" : ", ") + a.second + " " + std::to_string(us) + " us";
        if (us < best) { best = us; alg_ = a.first; alg_name_ = a.second; }
      } catch (const CudaError& e) {
        const std::string what = e.what();
        const bool ns = what.find("CUSPARSE_STATUS_NOT_SUPPORTED") != std::string::npos;
        const bool iv = sizeof(T) == 2 && what.find("CUSPARSE_STATUS_INVALID_VALUE") != std::string::npos;
        refused += ns || iv;
        trials += std::string(trials.empty() ? "" : ", ") + a.second + (ns ? " not supported" : iv ? " refused (CUSPARSE_STATUS_INVALID_VALUE)" : " failed");
        cudaGetLastError();
      }
      if (scratch) cudaFree(scratch);
    }
    CUDA_CHECK(cudaStreamSynchronize(s));
    if (best == 1e300 && refused == int(std::size(algs)))
      throw NotApplicable(std::string("cuSPARSE SpMM supports none of its CSR algorithms for ") + Acc<T>::name + " values with this layout and batching (" +
                          trials + ")");
    if (best == 1e300) throw CudaError("cusparseSpMM failed with every algorithm (" + trials + ")");
    const size_t sz = buffer_size(alg_);
    buf_ = sz ? this->mem.template alloc<unsigned char>(sz) : nullptr;
    preprocess(s);
    this->info_s["alg"] = alg_name_;
    this->info_s["alg_trials"] = trials;
    this->info_n["workspace_bytes"] = double(sz);
    this->info_s["untracked"] = "cuSPARSE handle's internal allocations";
  }

  // cusparseSpMM_preprocess with the chosen algorithm and buffer, in setup: the analysis that CSR_ALG1 /
  // CSR_ALG3 would otherwise do inside the first cusparseSpMM (and inside a graph capture, where it can
  // fail) is done here, outside every timed region (no effect for the other algorithms).
  // Not for cusparse-loop: its per-matrix calls share one buffer, and the analysis stored in it by one
  // matrix's preprocess would be used by the others (measured: wrong results).
  void preprocess(cudaStream_t s) {
    if (kind_ == Loop) { this->info_s["preprocess"] = "none (the per-matrix calls share one buffer)"; return; }
    const cusparseStatus_t st = preprocess_calls(alg_, buf_);
    if (st != CUSPARSE_STATUS_SUCCESS) { this->info_s["preprocess"] = "cusparseSpMM_preprocess: " + status_text(st); return; }
    CUDA_CHECK(cudaStreamSynchronize(s));
    this->info_s["preprocess"] = "cusparseSpMM_preprocess in setup";
  }
  // cusparseSpMM_preprocess of every call with `alg` into `buf` (not Loop: see preprocess); the first failure's status.
  cusparseStatus_t preprocess_calls(cusparseSpMMAlg_t alg, void* buf) {
    const acc_t<T> one = 1, zero = 0;
    for (size_t c = 0; c < calls_.size(); ++c) {
      const cusparseStatus_t st = cusparseSpMM_preprocess(h_, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, calls_[c].A,
                                                          calls_[c].B, &zero, calls_[c].C, cuda_type<acc_t<T>>(), alg, buf);
      if (st != CUSPARSE_STATUS_SUCCESS) return st;
    }
    return CUSPARSE_STATUS_SUCCESS;
  }

  Kind kind_;
  const HostBatch<T>* hb_ = nullptr;
  cusparseHandle_t h_ = nullptr;
  Pinned<int> rp_h_, ci_h_;
  int *rp_ = nullptr, *ci_ = nullptr;
  T *val_ = nullptr, *B_ = nullptr, *C_ = nullptr;
  std::vector<SpmmCall> calls_;
  std::vector<int> loop_mat_;
  cusparseSpMMAlg_t alg_ = CUSPARSE_SPMM_ALG_DEFAULT;
  std::string alg_name_ = "DEFAULT";
  void* buf_ = nullptr;
};

template <typename T>
inline void add_cusparse_peers(std::vector<std::unique_ptr<Method<T>>>& v) {
  v.emplace_back(new CusparsePeer<T>(CusparsePeer<T>::Loop));
  v.emplace_back(new CusparsePeer<T>(CusparsePeer<T>::Strided));
  v.emplace_back(new CusparsePeer<T>(CusparsePeer<T>::BlockDiag));
}

}  // namespace spb
