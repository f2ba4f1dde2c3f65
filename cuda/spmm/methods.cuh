// Host side of our kernels and the paper's: each Method owns its device copy of the batch, decides
// its launch configuration once in setup() from the batch and the device, and launches in run().
//   swa-coo, swa-csr, swa-coo-shared, swa-csr-shared : the paper's SWA SpMM, one launch per matrix
//   batched-coo, batched-csr                          : the paper's Batched SpMM, one launch per batch
//   batched-csr-vec, batched-csr-vec-persist, batched-csr-flat, batched-ell : ours (registers + vector loads, see vec.cuh)
#pragma once
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <type_traits>
#include "device_batch.cuh"
#include "swa.cuh"
#include "vec.cuh"

namespace spb {

// Calls f(std::integral_constant<Layout, L>) for the runtime layout.
template <typename F>
inline void with_layout(Layout l, F&& f) {
  if (l == Layout::Row) f(std::integral_constant<Layout, Layout::Row>());
  else f(std::integral_constant<Layout, Layout::Col>());
}

template <typename T>
class KernelMethod : public Method<T> {
 public:
  KernelMethod(std::string name, std::string family, int parts) : name_(std::move(name)), family_(std::move(family)), parts_(parts) {}
  std::string name() const override { return name_; }
  std::string family() const override { return family_; }
  void setup(const HostBatch<T>& h, const DeviceInfo& dev, cudaStream_t s) override {
    h_ = &h;
    dev_ = &dev;
    d_.setup(h, this->mem, parts_);
    d_.upload(s);
    plan();
  }
  void upload(cudaStream_t s) override { d_.upload(s); }
  T* output() override { return d_.v.C; }

 protected:
  virtual void plan() {}
  const HostBatch<T>* h_ = nullptr;
  const DeviceInfo* dev_ = nullptr;
  DeviceBatch<T> d_;

 private:
  std::string name_, family_;
  int parts_;
};

constexpr int kTB = 256;  // threads per block of the SWA CSR kernels

// swa-coo: global atomics, C zeroed by one memset inside the timed region, a launch per matrix.
template <typename T>
class SwaCooGlobal : public KernelMethod<T> {
 public:
  SwaCooGlobal() : KernelMethod<T>("swa-coo", "paper", DeviceBatch<T>::kCoo) {}
  void run(cudaStream_t s) override {
    const HostBatch<T>& h = *this->h_;
    const int sw = sub_warp(h.nb), lg = log2i(sw);
    CUDA_CHECK(cudaMemsetAsync(this->d_.v.C, 0, this->d_.c_bytes(), s));
    with_layout(h.layout, [&](auto L) {
      for (int i = 0; i < h.batch; ++i) {
        if (h.nnz[i] == 0) continue;
        swa_coo_global_kernel<T, decltype(L)::value><<<ceil_div(int64_t(h.nnz[i]) * sw, kTB), kTB, 0, s>>>(this->d_.v, i, lg);
        CUDA_CHECK_LAUNCH();
      }
    });
  }
};

// swa-csr / swa-csr-shared (a launch per matrix) and batched-csr (one launch, shared memory).
template <typename T>
class SwaCsr : public KernelMethod<T> {
 public:
  SwaCsr(std::string name, bool shared, bool batched)
      : KernelMethod<T>(std::move(name), "paper", DeviceBatch<T>::kCsr), shared_(shared), batched_(batched) {}
  std::string not_applicable(const HostBatch<T>& h, const DeviceInfo& dev) const override {
    if (shared_ && blocking(h, dev).p == 0) return "one output column of a sub-warp row does not fit the shared-memory budget";
    return "";
  }
  void run(cudaStream_t s) override {
    const HostBatch<T>& h = *this->h_;
    with_layout(h.layout, [&](auto L) {
      constexpr Layout LL = decltype(L)::value;
      auto kernel = shared_ ? swa_csr_kernel<T, LL, true> : swa_csr_kernel<T, LL, false>;
      auto launch = [&](int base, int count, int max_m) {
        const int64_t threads = int64_t(count) * max_m * b_.p * sw_;
        if (threads == 0) return;
        kernel<<<ceil_div(threads, kTB), kTB, shared_ ? b_.smem * (kTB / sw_) : 0, s>>>(this->d_.v, base, count, max_m, b_.p, b_.cb_w, log2i(sw_));
        CUDA_CHECK_LAUNCH();
      };
      if (batched_) launch(0, h.batch, h.max_m);
      else for (int i = 0; i < h.batch; ++i) launch(i, 1, h.m[i]);
    });
  }

 protected:
  // Paper Fig. 5d: (TB / subWarp) rows of nb values per block; block the columns past the budget,
  // which is the shared memory per SM split over the blocks needed for full occupancy.
  ColBlocking blocking(const HostBatch<T>& h, const DeviceInfo& dev) const {
    if (!shared_) { ColBlocking b; b.cb_w = std::max(h.nb, 1); return b; }
    const int sw = sub_warp(h.nb);
    const size_t budget = dev.budget_for(dev.max_threads_sm / kTB);
    ColBlocking b = col_blocking(h.nb, sizeof(T) * (kTB / sw), budget);
    b.smem = b.smem / (kTB / sw);  // per sub-warp row; launch multiplies back
    return b;
  }
  void plan() override {
    sw_ = sub_warp(this->h_->nb);
    b_ = blocking(*this->h_, *this->dev_);
    if (shared_) {
      const size_t bytes = b_.smem * (kTB / sw_);
      with_layout(this->h_->layout, [&](auto L) { allow_smem(swa_csr_kernel<T, decltype(L)::value, true>, bytes); });
      this->info_n["smem_bytes"] = double(bytes);
    }
    this->info_n["sub_warp"] = sw_;
    this->info_n["col_blocks"] = b_.p;
  }
  bool shared_, batched_;
  int sw_ = 32;
  ColBlocking b_;
};

// swa-coo-shared (a launch per matrix, blocking per matrix) and batched-coo (a block per matrix
// or column block; blocking decided once from max m_i * nb, as the paper does).
template <typename T>
class SwaCooShared : public KernelMethod<T> {
 public:
  SwaCooShared(std::string name, bool batched) : KernelMethod<T>(std::move(name), "paper", DeviceBatch<T>::kCoo), batched_(batched) {}
  std::string not_applicable(const HostBatch<T>& h, const DeviceInfo& dev) const override {
    if (col_blocking(h.nb, sizeof(T) * h.max_m, budget(dev)).p == 0)
      return "one output column of the largest matrix (" + std::to_string(h.max_m) + " rows) does not fit the shared-memory budget (paper's case 3)";
    return "";
  }
  void run(cudaStream_t s) override {
    const HostBatch<T>& h = *this->h_;
    const int lg = log2i(sub_warp(h.nb));
    with_layout(h.layout, [&](auto L) {
      auto kernel = swa_coo_shared_kernel<T, decltype(L)::value>;
      if (batched_) {
        if (h.max_m == 0) return;
        kernel<<<h.batch * all_.p, threads(h.max_nnz), all_.smem, s>>>(this->d_.v, 0, all_.p, all_.cb_w, lg);
        CUDA_CHECK_LAUNCH();
      } else {
        for (int i = 0; i < h.batch; ++i) {
          if (h.m[i] == 0) continue;
          kernel<<<per_[i].p, threads(h.nnz[i]), per_[i].smem, s>>>(this->d_.v, i, per_[i].p, per_[i].cb_w, lg);
          CUDA_CHECK_LAUNCH();
        }
      }
    });
  }

 private:
  static size_t budget(const DeviceInfo& dev) { return dev.budget_for(2); }  // >= 2 resident blocks per SM
  int threads(int nnz) const {
    const int64_t want = int64_t(std::max(nnz, 1)) * sub_warp(this->h_->nb);
    return int(std::min<int64_t>(512, std::max<int64_t>(32, (want + 31) / 32 * 32)));
  }
  void plan() override {
    const HostBatch<T>& h = *this->h_;
    const size_t bud = budget(*this->dev_);
    all_ = col_blocking(h.nb, sizeof(T) * h.max_m, bud);
    per_.clear();
    for (int i = 0; i < h.batch; ++i) per_.push_back(col_blocking(h.nb, sizeof(T) * std::max(h.m[i], 1), bud));
    // Per-matrix blockings may use more than the batch-wide one (smaller m_i): allow the whole budget.
    with_layout(h.layout, [&](auto L) { allow_smem(swa_coo_shared_kernel<T, decltype(L)::value>, bud); });
    this->info_n["smem_bytes"] = double(all_.smem);
    this->info_n["col_blocks"] = all_.p;
    this->info_n["smem_budget"] = double(bud);
  }
  bool batched_;
  ColBlocking all_;
  std::vector<ColBlocking> per_;
};

// Ours: batched-csr-vec (threads = batch x max_m rows; grid covers them all), batched-csr-vec-persist
// (same, grid capped at the blocks the SMs hold at once; the grid-stride loop walks the rest) and
// batched-csr-flat (block-diagonal indexing, persistent grid, row-major only).
template <typename T>
class CsrVec : public KernelMethod<T> {
 public:
  CsrVec(std::string name, bool persistent, bool flat)
      : KernelMethod<T>(std::move(name), "ours", flat ? DeviceBatch<T>::kCsrFlat : DeviceBatch<T>::kCsr), persistent_(persistent), flat_(flat) {}
  std::string not_applicable(const HostBatch<T>& h, const DeviceInfo&) const override {
    if (flat_ && h.layout == Layout::Col) return "block-diagonal indexing needs row-major B and C (column-major C_i are not rows of one matrix)";
    if (uint64_t(flat_ ? h.total_rows : int64_t(h.batch) * h.max_m) * 32 >= (1ull << 31)) return "too many rows for the kernel's 32-bit thread index";
    return "";
  }
  void run(cudaStream_t s) override {
    if (plan_.total == 0) return;
    const HostBatch<T>& h = *this->h_;
    const BatchView<T>& v = this->d_.v;
    constexpr int VM = 16 / sizeof(T);
    if (flat_) {
      auto kernel = plan_.V == 1 ? (ch_ == 1 ? csr_flat_kernel<T, 1, 1> : csr_flat_kernel<T, 1, 2>)
                                 : (ch_ == 1 ? csr_flat_kernel<T, VM, 1> : csr_flat_kernel<T, VM, 2>);
      kernel<<<grid_, tb_, 0, s>>>(v.rp, v.ci_g, v.val, v.B, v.C, v.nb, plan_.lg_tpr, plan_.total);
      CUDA_CHECK_LAUNCH();
      return;
    }
    with_layout(h.layout, [&](auto L) {
      constexpr Layout LL = decltype(L)::value;
      auto kernel = plan_.V == 1 ? csr_vec_kernel<T, LL, 1> : csr_vec_kernel<T, LL, VM>;
      kernel<<<grid_, 256, 0, s>>>(v, plan_.lg_tpr, plan_.total);
      CUDA_CHECK_LAUNCH();
    });
  }

 private:
  void plan() override {
    const HostBatch<T>& h = *this->h_;
    if (flat_) tune_flat();
    plan_ = vec_plan<T>(h.nb, flat_ ? h.total_rows : int64_t(h.batch) * h.max_m, h.layout, ch_);
    grid_ = std::max(1, ceil_div(plan_.total, tb_));
    if (persistent_) grid_ = std::min(grid_, this->dev_->sms * (this->dev_->max_threads_sm / tb_));
    this->info_n["block"] = tb_;
    this->info_n["chunks_per_lane"] = ch_;
    this->info_n["vec_width"] = plan_.V;
    this->info_n["lanes_per_row"] = 1 << plan_.lg_tpr;
    this->info_n["grid"] = grid_;
  }
  // Block size and column chunks per lane of batched-csr-flat. SPB_SPMM_FLAT="tb,ch" overrides
  // them (development sweeps only; the values used are reported in info).
  // Two chunks per lane pay off once the grid is far past what the SMs hold (measured on the H100:
  // batch 10000 x dim 64, nb 64: 120 us vs 131 us) and cost a little on small grids (batch 100).
  void tune_flat() {
    const HostBatch<T>& h = *this->h_;
    const int64_t resident = int64_t(this->dev_->sms) * this->dev_->max_threads_sm;
    const VecPlan one = vec_plan<T>(h.nb, h.total_rows, h.layout, 1);
    ch_ = int64_t(one.total) > 8 * resident && (h.nb / one.V) >= 2 ? 2 : 1;
    if (const char* e = std::getenv("SPB_SPMM_FLAT")) {
      int tb = 0, ch = 0;
      if (std::sscanf(e, "%d,%d", &tb, &ch) == 2 && (tb == 128 || tb == 256 || tb == 512 || tb == 1024) && (ch == 1 || ch == 2)) { tb_ = tb; ch_ = ch; }
    }
  }
  bool persistent_, flat_;
  VecPlan plan_;
  int grid_ = 1, tb_ = 256, ch_ = 1;
};

// Ours: batched-ell (see ell_flat_kernel). Slots per row K = the batch's longest row rounded up to
// 1, 2, 3, 4, 6 or 8; longer rows: not applicable. Row-major only. The ELL arrays are built on the
// host in setup (untimed, like the block-diagonal peer's shifted columns) and are what e2e uploads.
template <typename T>
class EllFlat : public Method<T> {
 public:
  std::string name() const override { return "batched-ell"; }
  std::string family() const override { return "ours"; }
  std::string not_applicable(const HostBatch<T>& h, const DeviceInfo&) const override {
    if (h.layout == Layout::Col) return "block-diagonal indexing needs row-major B and C";
    if (slots(h) == 0) return "rows with more than 8 nonzeros (ELL slots are capped at 8; use batched-csr-flat)";
    if (uint64_t(h.total_rows) * 32 >= (1ull << 31)) return "too many rows for the kernel's 32-bit thread index";
    return "";
  }
  void setup(const HostBatch<T>& h, const DeviceInfo& dev, cudaStream_t s) override {
    h_ = &h;
    k_ = slots(h);
    ec_h_ = Pinned<int>(size_t(h.total_rows) * k_);
    ev_h_ = Pinned<T>(size_t(h.total_rows) * k_);
    for (int64_t r = 0; r < h.total_rows; ++r)
      for (int q = 0; q < k_; ++q) {
        const int p = h.rp[r] + q;
        const bool in = p < h.rp[r + 1];
        ec_h_[size_t(r) * k_ + q] = in ? h.ci_g[p] : -1;
        ev_h_[size_t(r) * k_ + q] = in ? h.val[p] : T(0);
      }
    ec_ = this->mem.template alloc<int>(ec_h_.n);
    ev_ = this->mem.template alloc<T>(ev_h_.n);
    B_ = this->mem.template alloc<T>(h.B.n);
    C_ = this->mem.template alloc<T>(size_t(h.total_rows) * h.nb);
    upload(s);
    plan_ = vec_plan<T>(h.nb, h.total_rows, h.layout, 1);
    grid_ = std::max(1, std::min(ceil_div(plan_.total, 256), dev.sms * (dev.max_threads_sm / 256)));
    this->info_n["ell_slots"] = k_;
    this->info_n["vec_width"] = plan_.V;
    this->info_n["grid"] = grid_;
  }
  void upload(cudaStream_t s) override {
    CUDA_CHECK(cudaMemcpyAsync(ec_, ec_h_.p, ec_h_.bytes(), cudaMemcpyHostToDevice, s));
    CUDA_CHECK(cudaMemcpyAsync(ev_, ev_h_.p, ev_h_.bytes(), cudaMemcpyHostToDevice, s));
    CUDA_CHECK(cudaMemcpyAsync(B_, h_->B.p, h_->B.bytes(), cudaMemcpyHostToDevice, s));
  }
  void run(cudaStream_t s) override {
    if (plan_.total == 0) return;
    if (plan_.V == 1) launch<1>(s);
    else launch<16 / sizeof(T)>(s);
  }
  T* output() override { return C_; }

 private:
  static int slots(const HostBatch<T>& h) {
    int longest = 0;
    for (int64_t r = 0; r < h.total_rows; ++r) longest = std::max(longest, h.rp[r + 1] - h.rp[r]);
    for (int k : {1, 2, 3, 4, 6, 8}) if (longest <= k) return k;
    return 0;
  }
  template <int V>
  void launch(cudaStream_t s) {
    auto kernel = k_ == 1 ? ell_flat_kernel<T, V, 1> : k_ == 2 ? ell_flat_kernel<T, V, 2> : k_ == 3 ? ell_flat_kernel<T, V, 3>
                : k_ == 4 ? ell_flat_kernel<T, V, 4> : k_ == 6 ? ell_flat_kernel<T, V, 6> : ell_flat_kernel<T, V, 8>;
    kernel<<<grid_, 256, 0, s>>>(ec_, ev_, B_, C_, h_->nb, plan_.lg_tpr, plan_.total);
    CUDA_CHECK_LAUNCH();
  }
  const HostBatch<T>* h_ = nullptr;
  int k_ = 1;
  Pinned<int> ec_h_;
  Pinned<T> ev_h_;
  int* ec_ = nullptr;
  T *ev_ = nullptr, *B_ = nullptr, *C_ = nullptr;
  VecPlan plan_;
  int grid_ = 1;
};

// Every kernel method of ours and the paper's, by name (the driver adds the peers).
template <typename T>
inline std::vector<std::unique_ptr<Method<T>>> kernel_methods() {
  std::vector<std::unique_ptr<Method<T>>> v;
  v.emplace_back(new SwaCooGlobal<T>());
  v.emplace_back(new SwaCsr<T>("swa-csr", false, false));
  v.emplace_back(new SwaCooShared<T>("swa-coo-shared", false));
  v.emplace_back(new SwaCsr<T>("swa-csr-shared", true, false));
  v.emplace_back(new SwaCooShared<T>("batched-coo", true));
  v.emplace_back(new SwaCsr<T>("batched-csr", true, true));
  v.emplace_back(new CsrVec<T>("batched-csr-vec", false, false));
  v.emplace_back(new CsrVec<T>("batched-csr-vec-persist", true, false));
  v.emplace_back(new CsrVec<T>("batched-csr-flat", true, true));
  v.emplace_back(new EllFlat<T>());
  return v;
}

}  // namespace spb
