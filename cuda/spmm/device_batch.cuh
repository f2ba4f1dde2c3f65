// Device copy of a batch for our kernels: allocates (through the method's tracker) only the arrays
// a kernel reads (CSR or COO), B and C, and re-uploads them on demand (e2e mode).
#pragma once
#include "common.cuh"

namespace spb {

// Host -> device copy of a pinned array, on stream s (nothing for an empty one).
template <typename U>
inline void upload_pinned(U* dst, const Pinned<U>& src, cudaStream_t s) {
  if (src.n) CUDA_CHECK(cudaMemcpyAsync(dst, src.p, src.bytes(), cudaMemcpyHostToDevice, s));
}


template <typename T>
class DeviceBatch {
 public:
  enum Parts { kCsr = 1, kCoo = 2, kCsrFlat = 4 };
  void setup(const HostBatch<T>& h, TrackingAllocator& mem, int parts) {
    h_ = &h;
    parts_ = parts;
    v.batch = h.batch; v.nb = h.nb; v.max_m = h.max_m;
    row_off_ = mem.alloc<int>(h.row_off.n); col_off_ = mem.alloc<int>(h.col_off.n);
    if (parts & kCsr) { rp_ = mem.alloc<int>(h.rp.n); ci_ = mem.alloc<int>(h.ci.n); val_ = mem.alloc<T>(h.val.n); }
    if (parts & kCsrFlat) { if (!rp_) rp_ = mem.alloc<int>(h.rp.n); cig_ = mem.alloc<int>(h.ci_g.n); if (!val_) val_ = mem.alloc<T>(h.val.n); }
    if (parts & kCoo) {
      nnz_off_ = mem.alloc<int>(h.nnz_off.n);
      cr_ = mem.alloc<int>(h.coo_r.n); cc_ = mem.alloc<int>(h.coo_c.n); cv_ = mem.alloc<T>(h.coo_v.n);
    }
    B_ = mem.alloc<T>(h.B.n);
    C_ = mem.alloc<T>(size_t(h.total_rows) * h.nb);
    v.row_off = row_off_; v.col_off = col_off_; v.nnz_off = nnz_off_; v.rp = rp_; v.ci = ci_; v.ci_g = cig_; v.val = val_;
    v.coo_r = cr_; v.coo_c = cc_; v.coo_v = cv_; v.B = B_; v.C = C_;
  }
  void upload(cudaStream_t s) {
    const HostBatch<T>& h = *h_;
    upload_pinned(row_off_, h.row_off, s); upload_pinned(col_off_, h.col_off, s);
    if (parts_ & kCsr) { upload_pinned(rp_, h.rp, s); upload_pinned(ci_, h.ci, s); upload_pinned(val_, h.val, s); }
    if (parts_ & kCsrFlat) { if (!(parts_ & kCsr)) { upload_pinned(rp_, h.rp, s); upload_pinned(val_, h.val, s); } upload_pinned(cig_, h.ci_g, s); }
    if (parts_ & kCoo) { upload_pinned(nnz_off_, h.nnz_off, s); upload_pinned(cr_, h.coo_r, s); upload_pinned(cc_, h.coo_c, s); upload_pinned(cv_, h.coo_v, s); }
    upload_pinned(B_, h.B, s);
  }
  size_t c_bytes() const { return size_t(h_->total_rows) * h_->nb * sizeof(T); }
  BatchView<T> v;

 private:
  const HostBatch<T>* h_ = nullptr;
  int parts_ = 0;
  int *row_off_ = nullptr, *col_off_ = nullptr, *nnz_off_ = nullptr, *rp_ = nullptr, *ci_ = nullptr, *cig_ = nullptr, *cr_ = nullptr, *cc_ = nullptr;
  T *val_ = nullptr, *cv_ = nullptr, *B_ = nullptr, *C_ = nullptr;
};

}  // namespace spb
