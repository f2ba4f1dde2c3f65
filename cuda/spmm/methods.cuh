// Host side of our kernels and the paper's: each Method owns its device copy of the batch, decides
// its launch configuration once in setup() from the batch and the device, and launches in run().
//   swa-coo, swa-csr, swa-coo-shared, swa-csr-shared : the paper's SWA SpMM, one launch per matrix
//   batched-coo, batched-csr                          : the paper's Batched SpMM, one launch per batch
//   batched-csr-vec, batched-csr-vec-persist, batched-csr-flat, batched-ell : ours (registers + vector loads, see vec.cuh)
//   batched-col (column-major, col.cuh), batched-staged (B_i staged in shared memory, staged.cuh),
//   batched-tile (dense A_i tiles x B_i streamed, tensor cores, tile.cuh), batched-split (a row's nonzeros
//   split over lanes, split.cuh), auto (the planner's pick)   : ours
#pragma once
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <type_traits>
#include "device_batch.cuh"
#include "swa.cuh"
#include "vec.cuh"
#include "col.cuh"
#include "col_stream.cuh"
#include "staged.cuh"
#include "tile.cuh"
#include "tile_col.cuh"
#include "slab_stream.cuh"
#include "slab.cuh"
#include "mma.cuh"
#include "split.cuh"

namespace spb {

// Calls f(std::integral_constant<Layout, L>) for the runtime layout.
template <typename F>
inline void with_layout(Layout l, F&& f) {
  if (l == Layout::Row) f(std::integral_constant<Layout, Layout::Row>());
  else f(std::integral_constant<Layout, Layout::Col>());
}

// Bytes of B per row of the batch (what widen_for_l2 weighs).
template <typename T>
inline double b_row_bytes(const HostBatch<T>& h) {
  return h.total_rows > 0 ? double(h.B.n) * sizeof(T) / double(h.total_rows) : 0;
}

// What our tensor-core kernels (batched-tile, batched-slab, batched-mma) multiply with: their info.math.
template <typename T>
inline const char* tensor_math() {
  return sizeof(T) == 4 ? "3xTF32 tensor cores" : sizeof(T) == 8 ? "FP64 tensor cores (DMMA)" : "16-bit tensor cores, f32 accumulation";
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
    d_.setup(h, this->mem, parts_for(h));
    d_.upload(s);
    plan();
    upload_own(s);
  }
  void upload(cudaStream_t s) override {
    d_.upload(s);
    upload_own(s);
  }
  T* output() override { return d_.v.C; }

 protected:
  virtual void plan() {}
  // Host -> device copies of what plan() made beside the batch (job tables, A in the method's own
  // format): after plan() in setup, and with every upload (e2e mode).
  virtual void upload_own(cudaStream_t) {}
  // The arrays of the batch the kernel reads (DeviceBatch<T>::Parts); a method may pick them by layout.
  virtual int parts_for(const HostBatch<T>&) const { return parts_; }
  const HostBatch<T>* h_ = nullptr;
  const DeviceInfo* dev_ = nullptr;
  DeviceBatch<T> d_;

 private:
  std::string name_, family_;
  int parts_;
};

constexpr int kTB = 256;  // threads per block of the SWA CSR kernels

// Methods whose global atomics add into C itself: with 16-bit values each atomic rounds the running
// sum to 16 bits (atomicAdd on __half / __nv_bfloat16), which is not the f32 accumulation every other
// method has, so they are not applicable there (swa-coo, tf-sparse-dense).
template <typename T>
inline std::string atomics_16bit_na() {
  if (sizeof(T) > 2) return "";
  return std::string("global atomics add into C in ") + Acc<T>::name + ", rounding every partial sum to 16 bits (no f32 accumulation)";
}

// swa-coo: global atomics, C zeroed by one memset inside the timed region, a launch per matrix.
template <typename T>
class SwaCooGlobal : public KernelMethod<T> {
 public:
  SwaCooGlobal() : KernelMethod<T>("swa-coo", "paper", DeviceBatch<T>::kCoo) {}
  std::string not_applicable(const HostBatch<T>&, const DeviceInfo&) const override { return atomics_16bit_na<T>(); }
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
    ColBlocking b = col_blocking(h.nb, sizeof(acc_t<T>) * (kTB / sw), budget);
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
    if (col_blocking(h.nb, sizeof(acc_t<T>) * h.max_m, budget(dev)).p == 0)
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
    all_ = col_blocking(h.nb, sizeof(acc_t<T>) * h.max_m, bud);  // the shared output holds sums (acc_t<T>)
    per_.clear();
    for (int i = 0; i < h.batch; ++i) per_.push_back(col_blocking(h.nb, sizeof(acc_t<T>) * std::max(h.m[i], 1), bud));
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
      with_vec_width<T>(plan_.V, [&](auto vc) {
        constexpr int V = decltype(vc)::value;
        auto kernel = ch_ == 1 ? csr_flat_kernel<T, V, 1> : csr_flat_kernel<T, V, 2>;
        kernel<<<grid_, tb_, 0, s>>>(v.rp, v.ci_g, v.val, v.B, v.C, v.nb, plan_.lg_tpr, plan_.total);
      });
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
    plan_ = vec_plan<T>(h.nb, flat_ ? h.total_rows : int64_t(h.batch) * h.max_m, h.layout, ch_, flat_ && vec_mid());
    if (flat_) widen_for_l2(plan_, h.nb, ch_, b_row_bytes(h), *this->dev_);
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
    const VecPlan one = vec_plan<T>(h.nb, h.total_rows, h.layout, 1, vec_mid());
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

// Nonzeros of the batch's longest row.
template <typename T>
inline int longest_row(const HostBatch<T>& h) {
  int longest = 0;
  for (int64_t r = 0; r < h.total_rows; ++r) longest = std::max(longest, h.rp[size_t(r + 1)] - h.rp[size_t(r)]);
  return longest;
}
// ELL slots of a batch: the longest row rounded up to 1, 2, 3, 4, 6 or 8 (0: a row is longer than 8).
template <typename T>
inline int ell_slots(const HostBatch<T>& h) {
  const int longest = longest_row(h);
  for (int k : {1, 2, 3, 4, 6, 8}) if (longest <= k) return k;
  return 0;
}

// Each row's nonzeros in K fixed slots (padding: column -1, value 0), with block-diagonal columns
// (ci_g, row-major kernels) or columns local to the matrix (column-major kernels). Built on the host.
template <typename T>
struct EllHost {
  Pinned<int> cols;
  Pinned<T> vals;
  void build(const HostBatch<T>& h, int K, bool global_cols) {
    cols = Pinned<int>(size_t(h.total_rows) * K);
    vals = Pinned<T>(size_t(h.total_rows) * K);
    for (int64_t r = 0; r < h.total_rows; ++r)
      for (int q = 0; q < K; ++q) {
        const int p = h.rp[r] + q;
        const bool in = p < h.rp[r + 1];
        cols[size_t(r) * K + q] = in ? (global_cols ? h.ci_g[p] : h.ci[p]) : -1;
        vals[size_t(r) * K + q] = in ? h.val[p] : T(0);
      }
  }
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
    if (ell_slots(h) == 0) return "rows with more than 8 nonzeros (ELL slots are capped at 8; use batched-csr-flat)";
    if (uint64_t(h.total_rows) * 32 >= (1ull << 31)) return "too many rows for the kernel's 32-bit thread index";
    return "";
  }
  void setup(const HostBatch<T>& h, const DeviceInfo& dev, cudaStream_t s) override {
    h_ = &h;
    k_ = ell_slots(h);
    ell_.build(h, k_, true);
    ec_ = this->mem.template alloc<int>(ell_.cols.n);
    ev_ = this->mem.template alloc<T>(ell_.vals.n);
    B_ = this->mem.template alloc<T>(h.B.n);
    C_ = this->mem.template alloc<T>(size_t(h.total_rows) * h.nb);
    upload(s);
    plan_ = vec_plan<T>(h.nb, h.total_rows, h.layout, 1, vec_mid());
    grid_ = std::max(1, std::min(ceil_div(plan_.total, 256), dev.sms * (dev.max_threads_sm / 256)));
    this->info_n["ell_slots"] = k_;
    this->info_n["vec_width"] = plan_.V;
    this->info_n["lanes_per_row"] = 1 << plan_.lg_tpr;
    this->info_n["grid"] = grid_;
  }
  void upload(cudaStream_t s) override {
    CUDA_CHECK(cudaMemcpyAsync(ec_, ell_.cols.p, ell_.cols.bytes(), cudaMemcpyHostToDevice, s));
    CUDA_CHECK(cudaMemcpyAsync(ev_, ell_.vals.p, ell_.vals.bytes(), cudaMemcpyHostToDevice, s));
    CUDA_CHECK(cudaMemcpyAsync(B_, h_->B.p, h_->B.bytes(), cudaMemcpyHostToDevice, s));
  }
  void run(cudaStream_t s) override {
    if (plan_.total == 0) return;
    with_vec_width<T>(plan_.V, [&](auto vc) { launch<decltype(vc)::value>(s); });
  }
  T* output() override { return C_; }

 private:
  template <int V>
  void launch(cudaStream_t s) {
    auto kernel = k_ == 1 ? ell_flat_kernel<T, V, 1> : k_ == 2 ? ell_flat_kernel<T, V, 2> : k_ == 3 ? ell_flat_kernel<T, V, 3>
                : k_ == 4 ? ell_flat_kernel<T, V, 4> : k_ == 6 ? ell_flat_kernel<T, V, 6> : ell_flat_kernel<T, V, 8>;
    kernel<<<grid_, 256, 0, s>>>(ec_, ev_, B_, C_, h_->nb, plan_.lg_tpr, plan_.total);
    CUDA_CHECK_LAUNCH();
  }
  const HostBatch<T>* h_ = nullptr;
  int k_ = 1;
  EllHost<T> ell_;
  int* ec_ = nullptr;
  T *ev_ = nullptr, *B_ = nullptr, *C_ = nullptr;
  VecPlan plan_;
  int grid_ = 1;
};

// Where each row of the batch lives, for kernels that need its matrix (column-major C_i[j * m_i + r]):
// the row's matrix index and each matrix's {row_off, m, col_off, k}, built on the host in setup (untimed,
// like the ELL arrays) and uploaded with A in e2e mode; um / uk: every matrix's m and k in a uniform
// batch (the kernels then compute the matrix from the row, no lookups).
template <typename T>
struct RowMatrices {
  Pinned<int> rmat_h;
  Pinned<int4> desc_h;
  int* rmat = nullptr;
  int4* desc = nullptr;
  int um = 0, uk = 0;
  void build(const HostBatch<T>& h, TrackingAllocator& mem) {
    rmat_h = Pinned<int>(std::max<int64_t>(h.total_rows, 1));
    desc_h = Pinned<int4>(std::max(h.batch, 1));
    for (int i = 0; i < h.batch; ++i) {
      desc_h[i] = make_int4(h.row_off[i], h.m[i], h.col_off[i], h.k[i]);
      for (int r = h.row_off[i]; r < h.row_off[i + 1]; ++r) rmat_h[r] = i;
    }
    rmat = mem.alloc<int>(rmat_h.n);
    desc = mem.alloc<int4>(desc_h.n);
    um = h.uniform && h.batch > 0 && h.m[0] > 0 ? h.m[0] : 0;
    uk = um ? h.k[0] : 0;
  }
  void upload(cudaStream_t s) {
    CUDA_CHECK(cudaMemcpyAsync(rmat, rmat_h.p, rmat_h.bytes(), cudaMemcpyHostToDevice, s));
    CUDA_CHECK(cudaMemcpyAsync(desc, desc_h.p, desc_h.bytes(), cudaMemcpyHostToDevice, s));
  }
};

// Values of B's stacked rows (k) the widest 256-row block of col_kernel touches: from its first
// matrix's col_off to its last's end (the shared memory a column of its staged chunk takes).
template <typename T>
inline int64_t col_stage_span(const HostBatch<T>& h, const RowMatrices<T>& rm) {
  int64_t span = 0;
  for (int64_t r0 = 0; r0 < h.total_rows; r0 += 256) {
    const int a = rm.rmat_h[size_t(r0)], b = rm.rmat_h[size_t(std::min<int64_t>(r0 + 256, h.total_rows) - 1)];
    span = std::max<int64_t>(span, int64_t(h.col_off[b]) + h.k[b] - h.col_off[a]);
  }
  return span;
}

// Ours: batched-col (column-major only; see col_kernel). K ELL slots (local columns) when no row is
// longer than 8, else the CSR arrays; per-row matrix index and per-matrix int4 descriptor built on the
// host in setup (untimed, like the ELL arrays) and uploaded with A in e2e mode.
template <typename T>
class ColMajor : public KernelMethod<T> {
 public:
  ColMajor() : KernelMethod<T>("batched-col", "ours", DeviceBatch<T>::kCsr) {}
  std::string not_applicable(const HostBatch<T>& h, const DeviceInfo&) const override {
    if (h.layout != Layout::Col) return "column-major kernel (lanes on rows of C); row-major B and C have batched-ell / batched-csr-flat";
    return "";
  }
  void run(cudaStream_t s) override {
    if (this->h_->total_rows == 0) return;
    if (stream_) {
      const BatchView<T>& v = this->d_.v;
      skern_<<<sgrid_, 32 * kColStreamWarps, sp_.smem, s>>>(ec_, ev_, v.B, v.C, v.nb, rm_.um, rm_.uk, this->h_->batch, sp_, int64_t(this->h_->B.n));
      CUDA_CHECK_LAUNCH();
      return;
    }
    switch (k_) {
      case 0: launch<0>(s); break;
      case 1: launch<1>(s); break;
      case 2: launch<2>(s); break;
      case 3: launch<3>(s); break;
      case 4: launch<4>(s); break;
      case 6: launch<6>(s); break;
      default: launch<8>(s); break;
    }
  }

 private:
  void plan() override {
    const HostBatch<T>& h = *this->h_;
    k_ = ell_slots(h);
    rm_.build(h, this->mem);
    stream_ = plan_stream(h);
    if (k_) ell_.build(h, k_, false);
    if (k_) { ec_ = this->mem.template alloc<int>(ell_.cols.n); ev_ = this->mem.template alloc<T>(ell_.vals.n); }
    if (stream_) return;
    // Columns per thread JC and blockIdx.y chunks: enough threads to cover ~4 waves of the device,
    // each thread walking nb / (JC * grid.y) chunks with its row of A in registers.
    // SPB_SPMM_COL="jc,ymax" overrides (development sweeps; the values used are in info).
    // 4 columns a thread load A's row once for 4 (2 before): faster where the grid still fills the device at 4 (rows x nB/4
    // threads at least a quarter of its resident threads) or where rows are long (>= 32 nonzeros on average: A's loads
    // dominate); on small grids of short rows half the threads cost more (0.78-0.87x). spmm-wide's 32 column-major cells,
    // docs/spmm-notes.md.
    const int64_t rows = h.total_rows, nnz = rows > 0 ? h.rp[rows] : 0;
    // Two rows a lane (col_kernel's R) for 16-bit values where every m_i is even, rows have at most 3 nonzeros (ELL slots)
    // and nb >= 2: a 4-byte word a lane for each column of C. Measured (H200, graph mode; docs/spmm-notes.md "Session of
    // 2026-11-29 #2", col2r_cells.json): at 1-3 slots 0.84-0.88x one row's time in 6 of 8 cells (bf16 batch 1000 of d96, 3
    // a row, nb 192: 36.0 against 42.1 us), 1.04x in 2 (batch 5000 of d16; batch 100 of d64, nb 64); at 4-8 slots the
    // doubled slots and sums cost more (1.0-2.0x: bf16 d80, 8 a row, 78.6 against 38.6). $SPB_SPMM_COL_R=1 (development
    // A/Bs only) keeps one row.
    bool even = true;
    for (int i = 0; i < h.batch && even; ++i) even = h.m[i] % 2 == 0;
    const char* re = std::getenv("SPB_SPMM_COL_R");
    r_ = sizeof(T) == 2 && even && k_ >= 1 && k_ <= 3 && h.nb >= 2 && !(re && std::string(re) == "1") ? 2 : 1;
    const bool fills = rows / r_ * (h.nb / 4) >= int64_t(this->dev_->sms) * this->dev_->max_threads_sm / 4;
    const bool long_rows = rows > 0 && nnz >= 32 * rows;
    jc_ = h.nb >= 4 && (fills || long_rows) ? 4 : h.nb >= 2 ? 2 : 1;
    int ymax = 65535;
    if (const char* e = std::getenv("SPB_SPMM_COL")) {
      int jc = 0, y = 0;
      if (std::sscanf(e, "%d,%d", &jc, &y) == 2 && (jc == 1 || jc == 2 || jc == 4) && y >= 1) { jc_ = jc; ymax = y; }
    }
    if (jc_ == 1) r_ = 1;  // (no two-row kernels of one column a thread)
    gx_ = std::max(1, ceil_div(h.total_rows, 256 * r_));
    const int64_t want = 4ll * this->dev_->sms * this->dev_->max_threads_sm;
    gy_ = std::max(1, ceil_div(h.nb, jc_));
    while (gy_ > 1 && int64_t(gx_) * 256 * gy_ > want) gy_ = (gy_ + 1) / 2;
    gy_ = std::min(gy_, std::min(ymax, 65535));
    const int um = rm_.um, uk = rm_.uk;
    // Uniform batches with A's rows in ELL slots and 2 or more nonzeros a row on average stage their
    // columns of B in shared memory where they fit 48 KB (no opt-in). Measured on spmm-wide's uniform
    // column-major cells: 3-8 a row 0.97-1.71x (col-f64 3 a row 1.16-1.18x, d64 8 a row nB 256 1.71x);
    // 1 a row 0.66-0.76x (each staged value serves one row); CSR rows of 16-128 0.72-0.96x.
    // $SPB_SPMM_COL_STAGE=0 / 1 (development A/B only) turns it off / on wherever it fits.
    // Mixed batches likewise (stage 2: the block's matrices looked up, shared memory as wide as the widest
    // block's k range, col_stage_span), f32 / f64 with >= 48 rows a matrix on average. Measured (H100,
    // docs/spmm-notes.md "batched-col: mixed batches staged"): mean dims 48-250, 2.5-4.5 a row, 0.66-0.90x
    // the time through L1 at nb 8-512 (spmm-wide's col-mixed shape at another seed, nb 512: 482 -> 332 us;
    // the suite's own cell 567 -> 364), except d48 nb 16
    // (1.04x); mean dims 24-36 lost up to 1.39x where nb < 256 (each of a block's ~10 matrices a
    // dependent lookup and a short copy); 16-bit values go one plain copy at a time (1.4x slower).
    const char* st = std::getenv("SPB_SPMM_COL_STAGE");
    const size_t bytes = um > 0 ? (uk > 0 ? col_stage_bytes<T>(um, uk, jc_, r_) : 0) : size_t(col_stage_span(h, rm_)) * jc_ * sizeof(T);
    const bool fits = bytes > 0 && bytes <= 48 * 1024;
    const bool mixed_ok = sizeof(T) >= 4 && h.batch > 0 && rows >= 48ll * h.batch;
    stage_ = fits && (st ? std::string(st) == "1" : k_ > 0 && nnz >= 2 * rows && (um > 0 || mixed_ok)) ? (um > 0 ? 1 : 2) : 0;
    smem_ = stage_ ? bytes : 0;
    // Two buffers where a block takes two or more chunks of columns, both fit 48 KB and values are 4 or 8
    // bytes (col_kernel's DB, buf): H100, ABAB (docs/spmm-notes.md): batch 1000 of d64, 8 a row, nB 256 80.1 -> 71.1 us,
    // batch 10000 of d64 nB 64 132.6 -> 124.7, mixed d16-256 nB 512 366 -> 358, f64 d96 nB 200 98.3 -> 94.3, d16 nB 256
    // 31.6 -> 31.8; 16-bit lost (f16 d64 nB 256 36.9 -> 38.8), so not for 16-bit values.
    // $SPB_SPMM_COL_DB=0 (development A/B only) keeps one.
    const char* db = std::getenv("SPB_SPMM_COL_DB");
    const int chunks = ceil_div(ceil_div(std::max(h.nb, 1), jc_), gy_);
    const bool two = col_db<T> && !(db && std::string(db) == "0");
    buf_ = stage_ && chunks >= 2 && 2 * bytes <= 48 * 1024 && two ? int(bytes / sizeof(T)) : 0;
    if (buf_) smem_ = 2 * bytes;
    this->info_s["path"] = std::string(k_ ? "ell" : "csr") + (um ? ", uniform (no matrix lookup)" : "") +
                           (stage_ ? buf_ ? ", B staged in shared memory (two buffers)" : ", B staged in shared memory" : "");
    this->info_n["ell_slots"] = k_;
    this->info_n["cols_per_thread"] = jc_;
    this->info_n["rows_per_thread"] = r_;
    this->info_n["grid_y"] = gy_;
  }
  void upload_own(cudaStream_t s) override {
    rm_.upload(s);
    if (k_) {
      CUDA_CHECK(cudaMemcpyAsync(ec_, ell_.cols.p, ell_.cols.bytes(), cudaMemcpyHostToDevice, s));
      CUDA_CHECK(cudaMemcpyAsync(ev_, ell_.vals.p, ell_.vals.bytes(), cudaMemcpyHostToDevice, s));
    }
  }
  template <int K>
  void launch(cudaStream_t s) {
    const BatchView<T>& v = this->d_.v;
    const int* cols = K ? ec_ : v.ci;
    const T* vals = K ? ev_ : v.val;
    const dim3 grid(gx_, gy_);
    auto by_jc = [&](auto stage) {
      constexpr int S = decltype(stage)::value;
      constexpr bool D = S > 0 && col_db<T>;  // DB kernels (buffers chosen at run time, buf_): see col_db
      auto kern = jc_ == 1 ? col_kernel<T, K, 1, S, D> : jc_ == 2 ? col_kernel<T, K, 2, S, D> : col_kernel<T, K, 4, S, D>;
      if constexpr (sizeof(T) == 2 && S != 2 && K >= 1 && K <= 3)  // two rows a lane (r_ 2: nb >= 2, so jc_ >= 2)
        if (r_ == 2) kern = jc_ == 2 ? col_kernel<T, K, 2, S, D, 2> : col_kernel<T, K, 4, S, D, 2>;
      kern<<<grid, 256, smem_, s>>>(rm_.rmat, rm_.desc, v.rp, cols, vals, v.B, v.C, v.nb, int(this->h_->total_rows), rm_.um, rm_.uk, rm_.uk * jc_,
                                    rm_.uk * (v.nb % jc_), buf_);
    };
    if (stage_ == 1) by_jc(std::integral_constant<int, 1>{});
    else if (stage_ == 2) by_jc(std::integral_constant<int, 2>{});
    else by_jc(std::integral_constant<int, 0>{});
    CUDA_CHECK_LAUNCH();
  }
  // The streamed path (col_stream_kernel) for uniform batches with rows in 1-4 or 8 ELL slots, 16-bit or f32 values, A_i
  // of at most 128 rows and B and C of 4 MB or more. Measured (H200, graph mode; docs/spmm-notes.md "Session
  // of 2026-11-29 #4"): on the 16 cells of colstream_cells it takes, 0.41-1.01x col_kernel's time (f16 batch 1000 of d64,
  // 3 a row, nB 256: 32.0 -> 24.4 us; odd m, d63: 62.3 -> 27.8), and 0.55-1.01x on the 11 of colstream_check (written
  // before that run). Not taken where it did not pay: f64 (1.00-1.04x), B and C under 4 MB (1.00-1.07x; 1.5-1.8x on
  // tiny batches: a warp fills its ring for a few columns), A_i taller than 128 rows (m 160: 1.01x; each 128-row item
  // reads B_i again), rows of 5-6 (in 8 slots: 0.69-1.41x, f32 d80 6 a row nB 160 18.3 -> 25.8; colstream_k6.json; the
  // kernels are not built for 6 slots, to keep the driver's size). $SPB_SPMM_COL_STREAM=1 / 0 (development A/Bs) takes it wherever it applies / never.
  bool plan_stream(const HostBatch<T>& h) {
    const int um = rm_.um, uk = rm_.uk;
    const char* sm = std::getenv("SPB_SPMM_COL_STREAM");
    const char* re = std::getenv("SPB_SPMM_COL_R");
    const double bc_bytes = double(h.B.n + size_t(h.total_rows) * h.nb) * sizeof(T);
    const bool stream_rule = sizeof(T) <= 4 && um <= 128 && bc_bytes >= 4e6;
    if ((sm ? std::string(sm) == "1" : stream_rule) && um > 0 && uk > 0 && k_ >= 1 && h.nb >= 1) {  // (no kernel for 6 slots: stream_kernel)
      const int R = um % 2 == 0 && !(re && std::string(re) == "1") ? 2 : 1;
      const char* cb = std::getenv("SPB_SPMM_COL_STREAM_CHUNK");  // B's bytes a chunk (development sweeps)
      const int chunk = cb && std::atoi(cb) > 0 ? std::atoi(cb) : kColStreamChunkBytes;
      ColStreamPlan p = col_stream_plan<T>(h.batch, um, uk, h.nb, R, 0, chunk);
      const DeviceInfo& dv = *this->dev_;
      skern_ = stream_kernel(k_, R);
      int per_sm = 0;  // blocks an SM holds (registers and shared memory)
      if (skern_ && p.smem <= 48 * 1024) CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, skern_, 32 * kColStreamWarps, p.smem));
      sp_ = col_stream_plan<T>(h.batch, um, uk, h.nb, R, int64_t(std::max(per_sm, 1)) * dv.sms * kColStreamWarps, chunk);
      if (per_sm > 0) {
        sgrid_ = int(std::max<int64_t>(1, std::min<int64_t>((sp_.nitems + kColStreamWarps - 1) / kColStreamWarps, int64_t(per_sm) * dv.sms)));
        this->info_s["path"] = "ell, uniform, streamed (a warp a strip of rows, chunks of B through its own ring)";
        this->info_n["ell_slots"] = k_;
        this->info_n["rows_per_thread"] = sp_.R;
        this->info_n["strips_a_warp"] = sp_.SS;
        this->info_n["cols_per_chunk"] = sp_.J;
        this->info_n["column_parts"] = sp_.parts;
        this->info_n["grid"] = sgrid_;
        return true;
      }
    }
    return false;
  }
  using StreamKernel = void (*)(const int*, const T*, const T*, T*, int, int, int, int, ColStreamPlan, int64_t);
  // col_stream_kernel for `slots` ELL slots (1-4 or 8) and R rows a lane; none for f64 or 6 slots.
  StreamKernel stream_kernel(int slots, int R) const {
    StreamKernel f = nullptr;
    if constexpr (sizeof(T) <= 4) {
      auto pick = [&](auto kc) {
        constexpr int K = decltype(kc)::value;
        f = R == 2 ? col_stream_kernel<T, K, 2> : col_stream_kernel<T, K, 1>;
      };
      switch (slots) {
        case 1: pick(std::integral_constant<int, 1>()); break;
        case 2: pick(std::integral_constant<int, 2>()); break;
        case 3: pick(std::integral_constant<int, 3>()); break;
        case 4: pick(std::integral_constant<int, 4>()); break;
        case 8: pick(std::integral_constant<int, 8>()); break;
        default: break;
      }
    }
    return f;
  }
  StreamKernel skern_ = nullptr;
  bool stream_ = false;  // col_stream_kernel (sp_, sgrid_ blocks)
  ColStreamPlan sp_;
  int sgrid_ = 1;
  int k_ = 0, jc_ = 1, gx_ = 1, gy_ = 1;
  int r_ = 1;      // rows a lane (col_kernel's R)
  int stage_ = 0;  // B staged in shared memory (smem_ bytes a block): 1 uniform batch, 2 mixed (col_kernel's STAGE)
  int buf_ = 0;    // two buffers of buf_ values (col_kernel's buf), else 0
  size_t smem_ = 0;
  EllHost<T> ell_;
  RowMatrices<T> rm_;
  int* ec_ = nullptr;
  T* ev_ = nullptr;
};

// Calls f(std::integral_constant<int, V>()) for the one of Vs equal to v (nothing when none is).
template <int... Vs, typename F>
inline void with_int(int v, F&& f) {
  ((v == Vs ? (f(std::integral_constant<int, Vs>()), 0) : 0), ...);
}

// Ours: batched-split (see split_kernel), both layouts. S lanes a row: the mean row over 4 nonzeros a
// lane, rounded up to a power of two in 4..16, and 32 on rows of >= 64 where rows x 32 lanes x column
// chunks stay within the resident threads; NV columns a lane: row-major nb rounded up to a power of
// two in 4..16 (8..16 for 16-bit vectors), column-major 4; blockIdx.y walks the rest. Measured on
// development sweeps (docs/spmm-notes.md, "batched-split" and "batched-split: 32 lanes within a wave"): 32
// lanes lost to 16 on rows of 96-128 where they made more threads than the GPU holds (batch 20 of d512,
// batch 60 of d192) and won by 5-19 % where they did not (batch 10 of d256, 128 a row; batch 4 of d2048,
// 256 a row); column-major B, whose values a lane loads one by one, ran faster as more blocks of 4 columns.
// $SPB_SPMM_SPLIT="S,NV" forces them, 0 keeping the plan's (development sweeps only; the values used are in info).
// Nonzeros a row on average over the batch (0 without rows): what the planner's and setup's rules call a row's length.
template <typename T>
inline double mean_row_len(const HostBatch<T>& h) { return h.total_rows > 0 ? double(h.total_nnz) / double(h.total_rows) : 0; }
inline int split_lanes(double row_len) { return std::clamp(next_pow2(std::max(1, int(std::ceil(row_len / 4)))), 4, 16); }
template <typename T>
class SplitRows : public KernelMethod<T> {
 public:
  SplitRows() : KernelMethod<T>("batched-split", "ours", DeviceBatch<T>::kCsr) {}
  std::string not_applicable(const HostBatch<T>& h, const DeviceInfo&) const override {
    if (h.total_rows >= (1ll << 31) / 32) return "too many rows for the kernel's 32-bit row index at 32 lanes a row";
    return "";
  }
  void run(cudaStream_t s) override {
    if (this->h_->total_rows == 0) return;
    const BatchView<T>& v = this->d_.v;
    const bool row = this->h_->layout == Layout::Row;
    with_layout(this->h_->layout, [&](auto L) {
      with_int<4, 8, 16, 32>(s_, [&](auto S) {
        with_int<4, 8, 16>(nv_, [&](auto NV) {
          split_kernel<T, decltype(L)::value, decltype(S)::value, decltype(NV)::value><<<dim3(gx_, gy_), 256, 0, s>>>(
              v.rp, row ? v.ci_g : v.ci, v.val, rm_.rmat, rm_.desc, v.B, v.C, v.nb, int(this->h_->total_rows), rm_.um, rm_.uk, vw_);
        });
      });
    });
    CUDA_CHECK_LAUNCH();
  }

 private:
  int parts_for(const HostBatch<T>& h) const override { return h.layout == Layout::Row ? DeviceBatch<T>::kCsrFlat : DeviceBatch<T>::kCsr; }
  void plan() override {
    const HostBatch<T>& h = *this->h_;
    const int64_t rows = h.total_rows;
    const double row_len = mean_row_len(h);
    constexpr int VW = 16 / sizeof(T);
    const bool row = h.layout == Layout::Row;
    s_ = split_lanes(row_len);
    nv_ = row ? std::clamp(next_pow2(std::max(1, h.nb)), VW == 8 && h.nb % 8 == 0 ? 8 : 4, 16) : 4;
    // Few long rows: a second half-warp a row while the grid still fits the SMs at once (its lanes
    // shorten each row's chain of loads; past one wave they only queue).
    if (s_ == 16 && row_len >= 64 && double(rows) * 32 * ceil_div(std::max(h.nb, 1), nv_) <= double(this->dev_->sms) * this->dev_->max_threads_sm) s_ = 32;
    if (const char* e = std::getenv("SPB_SPMM_SPLIT")) {
      int a = 0, b = 0;
      if (std::sscanf(e, "%d,%d", &a, &b) == 2 && (a == 0 || a == 4 || a == 8 || a == 16 || a == 32) && (b == 0 || b == 4 || b == 8 || b == 16)) {
        s_ = a ? a : s_;  // 0: the plan's
        nv_ = b ? b : nv_;
      }
    }
    vw_ = vec_width_for<T>(h.nb, nv_, row);
    if (const char* e = std::getenv("SPB_SPMM_SPLIT_VW"); e && std::atoi(e) == 1) vw_ = 1;  // development A/Bs only: a value at a time
    gx_ = std::max(1, ceil_div(rows * s_, 256));
    gy_ = std::min(65535, std::max(1, ceil_div(h.nb, nv_)));
    if (!row) rm_.build(h, this->mem);
    this->info_n["lanes_per_row"] = s_;
    this->info_n["cols_per_lane"] = nv_;
    this->info_n["grid_y"] = gy_;
    this->info_n["vec_width"] = vw_;
  }
  int s_ = 4, nv_ = 4, gx_ = 1, gy_ = 1;
  int vw_ = 1;  // values a vector load of B (vec_width_for)
  void upload_own(cudaStream_t s) override {
    if (this->h_->layout == Layout::Col) rm_.upload(s);
  }
  RowMatrices<T> rm_;
};

// Column blocks of batched-staged (a thread block per (matrix, W columns)): W a
// multiple of `step`, all of nb when bytes(W) fits 48 KB (the two-blocks-per-SM budget when even
// `step` columns need more), halved while the grid has fewer than 4 blocks per SM, then made even.
// $env (development sweeps only) forces W; the values used go to info.
struct BlockCols {
  int W = 1, p = 1;
  size_t smem = 0;
};
template <typename F>
inline BlockCols block_columns(int nb, int batch, int step, F bytes, const DeviceInfo& dev, const char* env) {
  auto round = [&](int W) { return std::max(step, (W + step - 1) / step * step); };
  size_t budget = 48 * 1024;
  if (bytes(step) > budget) budget = dev.budget_for(2);
  int W = round(nb);
  while (W > step && bytes(W) > budget) W = round(W / 2);
  const char* e = std::getenv(env);
  const int forced = e ? std::atoi(e) : 0;
  if (forced >= step && forced % step == 0 && bytes(forced) <= budget) W = forced;
  else
    while (W > step && int64_t(batch) * ceil_div(nb, W) < 4ll * dev.sms) W = round(W / 2);
  BlockCols b;
  b.p = ceil_div(nb, W);
  b.W = round(ceil_div(nb, b.p));
  b.p = ceil_div(nb, b.W);
  b.smem = bytes(b.W);
  return b;
}

// Ours: batched-staged (staged.cuh), both layouts: a thread block per (matrix, column block, slice of
// rows). V = the widest vector (up to 16 bytes) that divides nb (column-major: up to nb), G = 2^lg lanes
// a row, as many as cover nb up to a warp, fewer while k_i rows of W = G V values and A_i's records would
// not leave two blocks an SM; where the matrices x column blocks are under 4 an SM, the rows of a matrix
// are cut into slices of whole passes (256 / G rows) up to that (narrowing W instead, as before, was
// 1.3-7x slower on batches of 10-100 long rows: docs/spmm-notes.md "batched-staged: slices of rows");
// rows of fewer than 8 on average narrow W first, then slice what is still short of blocks. A
// as {value, column} records (made in setup), staged a run of rows at a time where a slice's do not fit
// beside B_i's block. Column-major rows of fewer than 12 nonzeros on average take staged_col_kernel
// (lanes on rows, whose C stores are coalesced; the lane groups' stores, a column apart, cost the other
// kernel 1.1-3x there, where on longer rows it ran 0.1-0.5x the old kernel's time).
// $SPB_SPMM_STAGED (development sweeps only) forces W; $SPB_SPMM_STAGED_SLICE=0 narrows W instead of
// slicing rows, =1 slices first on short rows too, =old / =new force the column-major kernel. The values
// used go to info.
template <typename T>
class Staged : public KernelMethod<T> {
 public:
  Staged() : KernelMethod<T>("batched-staged", "ours", DeviceBatch<T>::kCsr) {}
  // Lane groups: a column of the largest B_i and the longest row's records; column-major lanes on rows: two columns.
  static bool groups_fit(const HostBatch<T>& h, const DeviceInfo& dev) { return row_bytes(h, 1, min_records(h)) <= dev.budget_for(2); }
  static bool fits(const HostBatch<T>& h, const DeviceInfo& dev) {
    return groups_fit(h, dev) || (h.layout == Layout::Col && size_t(h.max_k) * 2 * sizeof(T) <= dev.budget_for(2));
  }
  std::string not_applicable(const HostBatch<T>& h, const DeviceInfo& dev) const override {
    if (!fits(h, dev))
      return (h.layout == Layout::Row ? "a column of the largest B_i (" : "two columns of the largest B_i (") + std::to_string(h.max_k) + " rows)" +
             (h.layout == Layout::Row ? " and the longest row's nonzeros" : "") + " do not fit the shared-memory budget";
    return "";
  }
  void run(cudaStream_t s) override {
    const HostBatch<T>& h = *this->h_;
    if (h.batch == 0 || h.max_m == 0) return;
    const BatchView<T>& v = this->d_.v;
    if (old_col_) {
      staged_col_kernel<T><<<h.batch * p_, kStagedThreads, smem_, s>>>(v.row_off, v.col_off, v.rp, v.ci, v.val, v.B, v.C, v.nb, W_, p_);
    } else {
      with_vec([&](auto K) { K<<<int64_t(h.batch) * p_ * S_, kStagedThreads, smem_, s>>>(v.row_off, v.col_off, v.rp, nz_, v.B, v.C, v.nb, lg_, p_, rec_off_, cap_, S_, skew_); });
    }
    CUDA_CHECK_LAUNCH();
  }

 private:
  // Shared memory for W columns: B_i's block, then room for `cap` records. All of the largest
  // A_i's (16-byte copies from the boundary before its first: up to one copy more) where they fit; at
  // least the longest row's (and two copies' slack) for the kernel's runs of rows.
  static constexpr int kRV = int(16 / sizeof(StagedNz<T>));
  static size_t b_bytes(const HostBatch<T>& h, int W) { return (size_t(std::max(h.max_k, 1)) * W * sizeof(T) + 15) / 16 * 16; }
  static size_t row_bytes(const HostBatch<T>& h, int W, size_t cap) { return b_bytes(h, W) + cap * sizeof(StagedNz<T>); }
  static size_t all_records(const HostBatch<T>& h) { return size_t(h.max_nnz) + kRV; }
  static size_t min_records(const HostBatch<T>& h) { return std::min(all_records(h), size_t(longest_row(h)) + 2 * kRV); }
  template <typename F>
  void with_vec(F&& f) const {
    constexpr int vmax = int(16 / sizeof(T));
    auto go = [&](auto lc) {
      constexpr Layout L = decltype(lc)::value;
      if (V_ == 1) f(staged_row_kernel<T, L, 1>);
      else if (V_ == 2) f(staged_row_kernel<T, L, vmax >= 2 ? 2 : 1>);
      else if (V_ == 4) f(staged_row_kernel<T, L, vmax >= 4 ? 4 : 1>);
      else f(staged_row_kernel<T, L, vmax>);
    };
    if (this->h_->layout == Layout::Row) go(std::integral_constant<Layout, Layout::Row>());
    else go(std::integral_constant<Layout, Layout::Col>());
  }
  void plan() override {
    const HostBatch<T>& h = *this->h_;
    const DeviceInfo& dev = *this->dev_;
    const char* env = std::getenv("SPB_SPMM_STAGED");
    const int forced = env ? std::atoi(env) : 0;
    const char* se = std::getenv("SPB_SPMM_STAGED_SLICE");
    const std::string slice_env = se ? se : "";
    const double row_len = mean_row_len(h);
    old_col_ = h.layout == Layout::Col && (slice_env == "old" || (slice_env != "new" && row_len < 12) || !groups_fit(h, dev));
    this->info_s["kernel"] = old_col_ ? "lanes on rows" : "lane groups on rows";
    if (old_col_) {
      auto bytes = [&](int W) { return size_t(std::max(h.max_k, 1)) * staged_col_pitch(W) * sizeof(T); };
      const BlockCols b = block_columns(h.nb, h.batch, 1, bytes, dev, "SPB_SPMM_STAGED");
      W_ = b.W; p_ = b.p; smem_ = b.smem; S_ = 1;
      allow_smem(staged_col_kernel<T>, smem_);
    } else {
      const size_t budget = dev.budget_for(2);
      // All of the records where a column of B_i fits with them, else the fewest the kernel can take.
      const size_t want = row_bytes(h, 1, all_records(h)) <= budget ? all_records(h) : min_records(h);
      auto bytes = [&](int W) { return row_bytes(h, W, want); };
      V_ = int(16 / sizeof(T));
      if (h.layout == Layout::Row)
        while (V_ > 1 && h.nb % V_) V_ /= 2;
      else
        while (V_ > 1 && V_ > h.nb) V_ /= 2;
      lg_ = 0;
      while (lg_ < 5 && (V_ << lg_) < h.nb) ++lg_;
      while (lg_ > 0 && bytes(V_ << lg_) > budget) --lg_;
      while (V_ > 1 && bytes(V_) > budget) V_ /= 2;
      const int64_t want_blocks = 4ll * dev.sms;
      // Short rows narrow W first (slices would copy B_i's block again for few products: batch 100 of d256,
      // 3 a row, nb 128: 13.9 sliced against 10.5 narrowed), long rows slice first.
      if (slice_env == "0" || (slice_env != "1" && row_len < 8))
        while (lg_ > 0 && int64_t(h.batch) * ceil_div(h.nb, V_ << lg_) < want_blocks) --lg_;
      for (int l = 0; l <= 5; ++l)  // a forced W must be V 2^l lanes and fit
        if (forced == (V_ << l) && bytes(forced) <= budget) lg_ = l;
      W_ = V_ << lg_;
      p_ = ceil_div(h.nb, W_);
      // Slices: up to one pass of rows each, while the blocks are under 4 an SM.
      const int64_t blocks = int64_t(h.batch) * p_;
      const int passes = ceil_div(std::max(h.max_m, 1), kStagedThreads >> lg_);
      S_ = slice_env == "0" || blocks >= want_blocks ? 1 : int(std::min<int64_t>(passes, ceil_div(want_blocks, blocks)));
      rec_off_ = int(b_bytes(h, W_));
      cap_ = int(std::min(all_records(h), (budget - b_bytes(h, W_)) / sizeof(StagedNz<T>)));  // the rest of the budget
      smem_ = row_bytes(h, W_, size_t(cap_));
      this->info_n["record_runs"] = size_t(cap_) < all_records(h) ? 1 : 0;
      with_vec([&](auto K) { allow_smem(K, smem_); });
      nz_h_ = Pinned<StagedNz<T>>(size_t(h.total_nnz) + kRV);  // the last copy may run past the end
      for (size_t q = size_t(h.total_nnz); q < nz_h_.n; ++q) nz_h_[q] = StagedNz<T>{T(0), 0};
      for (int64_t q = 0; q < h.total_nnz; ++q) nz_h_[size_t(q)] = StagedNz<T>{h.val[size_t(q)], h.ci[size_t(q)]};
      nz_ = this->mem.template alloc<StagedNz<T>>(nz_h_.n);
      this->info_n["vec_width"] = V_;
      this->info_n["lanes_per_row"] = 1 << lg_;
      this->info_n["row_slices"] = S_;
      // Each lane group starts its row's walk g % 16 records in (staged_row_kernel) where the rows of a warp's groups would
      // otherwise read their records from the same banks: 4 or more groups on average at one bank offset (uniform rows of
      // 16-64 at 4 lanes a row: 8). Measured (H200, docs/spmm-notes.md "Session of 2026-11-29 #5"): there 0.81-0.98x the
      // time; elsewhere (offsets already spread: mixed rows, rows of 24 or 40 at 4 groups a warp; one group a warp) the
      // walk's second tail cost 1.03-1.12x. $SPB_SPMM_STAGED_SKEW=0 / 1 (development A/Bs only) forces it off / on.
      const int gw = 32 >> lg_, banks = int(128 / sizeof(StagedNz<T>));
      double ways = 0;
      int64_t warps = 0;
      for (int64_t r = 0; gw > 1 && r + gw <= h.total_rows; r += gw, ++warps) {
        int cnt[16] = {}, most = 0;
        for (int i = 0; i < gw; ++i)
          if (h.rp[size_t(r + i + 1)] > h.rp[size_t(r + i)]) most = std::max(most, ++cnt[h.rp[size_t(r + i)] % banks]);
        ways += most;
      }
      const double mean_ways = warps ? ways / double(warps) : 0;
      const char* sk = std::getenv("SPB_SPMM_STAGED_SKEW");
      skew_ = sk && std::string(sk) == "0" ? 0 : (sk && std::string(sk) == "1") || mean_ways >= 4 ? kStagedSkewMask : 0;
      this->info_n["record_skew"] = skew_ ? 1 : 0;
      this->info_n["record_bank_ways"] = std::round(mean_ways * 10) / 10;
    }
    if (int64_t(h.batch) * p_ * S_ >= (1ll << 31)) throw std::runtime_error("batched-staged: more blocks than one grid holds");
    this->info_n["block_cols"] = W_;
    this->info_n["col_blocks"] = p_;
    this->info_n["smem_bytes"] = double(smem_);
  }
  int V_ = 1, lg_ = 0, W_ = 1, p_ = 1, S_ = 1, rec_off_ = 0, cap_ = 0, skew_ = 0;
  bool old_col_ = false;
  size_t smem_ = 0;
  void upload_own(cudaStream_t s) override {
    if (!old_col_) upload_pinned(nz_, nz_h_, s);
  }
  Pinned<StagedNz<T>> nz_h_;  // A's nonzeros as records, in CSR order
  StagedNz<T>* nz_ = nullptr;
};

// Ours: batched-tile (see tile_kernel), both layouts, on tensor cores (sm_80 and newer). Jobs of BM
// rows: 16, 32 or 64 as the largest A_i has that many rows (larger A_i are cut into 64-row jobs; 32
// where that idles fewer warps), fewer while the tile would not leave two blocks an SM. A_i wider than
// kTilePanel columns are filled a panel at a time (the MP kernels), their nonzeros' places and values
// grouped by panel in setup (apos, aval, qoff). A block takes `per` consecutive column tiles of its job (A scattered once for them).
// $SPB_SPMM_TILE and $SPB_SPMM_TILE_BM (development sweeps only) force `per` and BM.
// SPB_SPMM_TILE_MP=old (development A/B only): the multi-panel plan before the panel-aware rows,
// one column tile a block and splits of whole panel pairs.
inline bool tile_mp_old() {
  const char* e = std::getenv("SPB_SPMM_TILE_MP");
  return e && std::string(e) == "old";
}
// Rows of B_i a pipeline chunk (tile_kernel's KC): tile_k, but 64 in the two-strip kernels (ms 2) where row-major, or
// column-major with k > 160. Half the chunks halve the waits, barriers and copy set-up a column tile pays. Row-major,
// registers bound the blocks an SM (4), so the larger stages cost none. Column-major kernels stage C too, and there
// 64-row chunks leave 3 blocks an SM instead of 4, which short k does not repay. Measured (H200, graph mode;
// docs/spmm-notes.md "64-row chunks for two strips"):
//   row-major: 47 cells of five 16-bit sets, 27 moved past 2 %, all faster (1.025-1.097x; f16 batch 200 of d256 nb 128
//     35.0 -> 31.9 us). A check set written before it ran: 1.06x in the 9 cells it moves (0.965-1.117x; the loss bf16
//     batch 180 of d160 nb 48).
//   column-major: 18 cells of two sets, 0.90-0.98x at k 144-160 (4 cells), 1.058x (geometric mean) at k 176-576 (14
//     cells, 2 of them slower: 0.975, 0.99). A check set written after that, before it ran: 1.056x in its 8 cells at
//     k 168-640 (0.97-1.14x), and 32-row chunks the faster in both at k 152-160.
// $SPB_SPMM_TILE_KC (32 or 64) forces it in the two-strip kernels (development A/Bs).
template <typename T>
inline int tile_kc(const HostBatch<T>& h, int ms) {
  if (ms != 2) return tile_k<T>(h.max_k);
  if (const char* e = std::getenv("SPB_SPMM_TILE_KC")) {
    const int kc = std::atoi(e);
    if (kc == 32 || kc == 64) return kc;
  }
  return h.layout == Layout::Row || h.max_k > 160 ? 64 : tile_k<T>(h.max_k);
}
template <typename T>
inline TileGeom<T> tile_geom(const HostBatch<T>& h, int bm, int warps = kTileWarps, int ms = 1, int pw = kTilePanel) {
  return TileGeom<T>(bm, h.max_k, h.layout == Layout::Row, tile_kc(h, ms), warps, ms, pw);
}
// A_i of k 129-192 held whole (one panel of up to kTileWidePanel columns, tile_kernel's PW) in the 16-bit two-strip
// kernels: one fill a job before its first chunk, shared by a block's column tiles, where the multi-panel kernels
// fill a panel at a time and refill both for every column tile. Measured (H200, graph mode; docs/spmm-notes.md "A held
// whole"), against the multi-panel kernels on 72 16-bit cells of k 136-256: at k 136-192 1.17x as fast (geometric mean
// of 29), faster by 4-45 % in 25, slower in 2 (column-major d168 nb 64 0.74x, d176 nb 136 0.90x); at k 200-256, where
// the whole tile (64 x 264) leaves 3 blocks an SM instead of 4, 15 faster and 18 slower (down to 0.68x). Its check set
// (10 cells at k 136-192, written before the rule ran): 1.17x, 1.03-1.30x in 9, 0.97x in one. $SPB_SPMM_TILE_WIDE
// (development A/Bs): 1 forces it up to k 256, 0 keeps the multi-panel kernels.
inline int tile_wide_env() {
  static const int v = [] { const char* e = std::getenv("SPB_SPMM_TILE_WIDE"); return e ? std::atoi(e) : -1; }();
  return v;
}
template <typename T>
inline int tile_wide_kmax() { return sizeof(T) != 2 || tile_wide_env() == 0 ? 0 : tile_wide_env() == 1 ? kTileWidePanel : 192; }
template <typename T>
inline bool tile_wide(const HostBatch<T>& h, int ms) {
  return ms == 2 && h.max_k > kTilePanel && h.max_k <= tile_wide_kmax<T>();
}
template <typename T>
inline bool tile_fits(const HostBatch<T>& h, const DeviceInfo& dev, int bm, int ms = 1) {
  return tile_geom(h, bm, kTileWarps, ms).bytes <= dev.budget_one();
}
// 16-bit batches whose B or C rows or columns leave 16-byte alignment somewhere (column-major: an m_i or k_i
// not a multiple of 8, so that some column starts off 16 bytes; row-major: nb): batched-tile and batched-slab
// take their MIS kernels (tile_kernel), whose copies stay asynchronous where the source is 4-byte aligned.
template <typename T>
inline bool misaligned16(const HostBatch<T>& h) {
  if (sizeof(T) != 2) return false;
  if (h.layout == Layout::Row) return h.nb % 8 != 0;
  for (int i = 0; i < h.batch; ++i)
    if (h.m[i] % 8 || h.k[i] % 8) return true;
  return false;
}
template <typename T>
inline int tile_rows_for(const HostBatch<T>& h, const DeviceInfo& dev) {
  int bm = h.max_m <= 16 ? 16 : h.max_m <= 32 ? 32 : 64;
  // 32 where it pads the jobs' rows to fewer 16-row strips than 64 (m = 96: 64 + 32, a quarter of the
  // warps idle; measured 15-25 % faster with 32): idle strips cost what working ones do.
  if (bm == 64) {
    int64_t pad64 = 0, pad32 = 0;
    for (int i = 0; i < h.batch; ++i) pad64 += int64_t(ceil_div(h.m[i], 64)) * 64, pad32 += int64_t(ceil_div(h.m[i], 32)) * 32;
    if (pad32 < pad64) bm = 32;
    // (f64 64-row jobs of A_i taller than 64 run 8 warps a block: tile_warps_for. Before those, 4 warps on
    // the 64-row tile's dense A (67 KB at k = 128) left 2 blocks an SM, too few warps for the DMMA chains,
    // and row-major nb >= 192 took 32-row jobs instead: 0.90-0.92x the time at d112-d128; 64 rows at 8
    // warps are 0.92-0.95x the 32-row jobs' time there.)
  }
  while (bm > 16 && tile_geom(h, bm).bytes > dev.budget_for(2)) bm /= 2;
  // A_i wider than a panel: every column tile refills A's panels, so the fill a column of C costs
  // BM x panel / BN. BM 32 (BN 64) instead of 64 (BN 32) where nb passes 32: measured 1.1-1.4x faster
  // at nb 64-256, slower at nb <= 32 (half its warps without columns); BM 16 (BN 128) was 7-35 % slower
  // than 32 at nb 96-256 (its B chunks serve 16 rows).
  if (h.max_k > kTilePanel && !tile_mp_old() && bm == 64 && h.nb > 32) bm = 32;
  return tile_fits(h, dev, bm) ? bm : 0;
}
// Warps a block (tile_kernel's W): 8 for f64 A_i of one panel (k <= 128) in 64-row jobs of A_i taller than 64
// rows (tile_rows_for keeps 64 for m of 97-128), else kTileWarps (4). Twice the columns a block (BN 64 instead
// of 32) on the same dense A tile: the same 2 blocks an SM (the 67 KB A tile bounds them) with twice the warps,
// which the DMMA chains need, and A scattered once for twice the columns. Measured (H100, graph mode;
// docs/spmm-notes.md "batched-tile: 8 warps for f64"): in that class 0.76-0.95x the time in all 14 cells, both
// layouts, nb 40-256 (column-major d120 16 a row nb 64: 64.9 against 85.4 us; d128 20 a row nb 128: 87.5
// against 106.5), and against the 32-row jobs that row-major nb >= 192 took before, 0.92-0.95x (d128 16 a row
// nb 256: 247.9 against 265.5; d112 24 a row nb 192: 161.0 against 175.0); elsewhere 8 warps lost or tied: m <= 64
// (column-major d64 nb 16: 21.4 against 17.0, nb 256 0.99x), 32-row jobs (d96 20 a row nb 64: 53.7 against 38.4;
// d112 nb 192: 197 against 175). $SPB_SPMM_TILE_WARPS (development A/Bs only) forces 4 or 8 where 8 fits.
template <typename T>
inline int tile_warps_for(const HostBatch<T>& h, const DeviceInfo& dev, int bm) {
  if (sizeof(T) != 8 || h.max_k > kTilePanel || tile_geom(h, bm, 8).bytes > dev.budget_one()) return kTileWarps;
  if (const char* e = std::getenv("SPB_SPMM_TILE_WARPS")) {
    const int w = std::atoi(e);
    if (w == 4 || w == 8) return w;
  }
  return bm == 64 && h.max_m > 64 ? 8 : kTileWarps;
}
// Jobs of bm rows, and blocks with one column tile a block (jobs x column tiles).
template <typename T>
inline int64_t tile_jobs(const HostBatch<T>& h, int bm) {
  int64_t jobs = 0;
  for (int i = 0; i < h.batch; ++i) jobs += ceil_div(h.m[i], bm);
  return jobs;
}
template <typename T>
inline int64_t tile_blocks(const HostBatch<T>& h, int bm) {
  return tile_jobs(h, bm) * std::max(1, ceil_div(h.nb, tile_geom(h, bm).BN));
}

// Blocks a column tile for A_i wider than a panel (MP kernels): the most of 4, 3 or 2 that give each block
// at least two panels of the widest A_i and keep the grid (`blocks` with one column tile a block) within
// one wave of `wave` blocks; else 1. Measured: 1.4-2.7x faster where the grid is a quarter of a wave
// (d1024, batch 10, nb 8), up to 1.5x slower where the splits make a second wave (docs/spmm-notes.md).
// Splits need not divide the panels (a block takes panels s np / S to (s + 1) np / S): requiring it left
// A_i of 5, 7, 9-11 panels split less or not at all, 1.05-1.37x slower (batch 12 of d800, 7 panels, nb 8:
// 34.5 against 26.8 us; f64 batch 6 of d850, nb 16: 36.4 against 26.9; docs/spmm-notes.md).
template <typename T>
inline int tile_split(const HostBatch<T>& h, int64_t blocks, int64_t wave) {
  if (h.max_k <= kTilePanel) return 1;
  const int np = ceil_div(h.max_k, kTilePanel);
  // At least two panels a block: splits of single panels measured 8-46 % slower (2- and 3-panel A_i).
  // $SPB_SPMM_TILE_SPLIT_EVEN (development A/Bs only): the old rule, S a divisor of the panels.
  const bool even = std::getenv("SPB_SPMM_TILE_SPLIT_EVEN") != nullptr;
  for (int s = std::min(4, np); s >= 2; --s)
    if ((!even || np % s == 0) && (np / s >= 2 || tile_mp_old()) && blocks * s <= wave) return s;
  return 1;
}

// 16-row strips a warp (tile_kernel's MS), and the job height with them: 2 strips in 64-row jobs (a warp's tile 32 x 32,
// a block's 64 x 64) for 16-bit batches whose B and C are 16-byte aligned (not MIS), with A_i of >= 64 rows, >= 2 blocks
// an SM (jobs x 64-column tiles; not required past k 256), and either A_i wider than a panel (k > 128, where tile_rows_for takes 32-row jobs:
// the 64-row job also halves the B chunks' reads) with nb > 32, or k >= 96 (the k loop, which the second strip makes
// cheaper a product, outweighs the fill and the store) with nb >= 96; else 1 (bm as tile_rows_for). Measured (H200,
// graph mode, docs/spmm-notes.md "batched-tile: two strips a warp"), 71 cells of four sets: the rule picks 34, 0.98-1.54x
// as fast (geometric mean 1.20); a first rule (k >= 96, nb >= 64) lost 0.88-0.90x on
// row-major one-panel cells at nb 64 in the check set written after it, which this one was revised on. Elsewhere two
// strips lost down to 0.63x (column-major d32-d120 at nb 8-48: a block's 64 columns idle) and 0.88-0.93x below the grid
// bound (batch 10-20 of d256); four strips (64 x 32 a warp) were fastest in 5 of 55 cells, up to 2.7x slower elsewhere.
// Past k 256 the grid bound is dropped: below it two strips took 0.75-0.98x one strip's time in 6 of 8 cells (batch 8 of
// d1024, nb 96: 21.9 against 29.1 us) and tied in 2 (H200, docs/spmm-notes.md "rule 2t from k 200").
// $SPB_SPMM_TILE_MS (1 or 2) forces it where 16-bit and aligned (development A/Bs).
// mis: misaligned16(h), which the caller has.
template <typename T>
inline bool tile_two_blocks_sm(const HostBatch<T>& h, const DeviceInfo& dev) {  // 64-row jobs x 64-column tiles
  return tile_jobs(h, 64) * ceil_div(h.nb, 64) >= 2 * int64_t(dev.sms);
}
template <typename T>
inline int tile_strips_for(const HostBatch<T>& h, const DeviceInfo& dev, bool mis, int& bm) {
  if (sizeof(T) != 2 || mis || bm < 32 || !tile_fits(h, dev, 64, 2)) return 1;
  bool two = ((h.max_k > kTilePanel && h.nb > 32) || (h.max_k >= 96 && h.nb >= 96)) && h.max_m >= 64 &&
             (h.max_k > 2 * kTilePanel || tile_two_blocks_sm(h, dev));
  if (const char* e = std::getenv("SPB_SPMM_TILE_MS")) {
    const int ms = std::atoi(e);
    if (ms == 1 || ms == 2) two = ms == 2;
  }
  if (two) bm = 64;
  return two ? 2 : 1;
}

// Each nonzero of rows row .. row + rows - 1 at its place in a dense tile of those rows (pitch in values): local row x pitch
// + column, 16 bits (the callers bound the tile) in apos at the nonzero's CSR index. batched-tile's and batched-slab's fills.
template <typename T>
inline void dense_places(const HostBatch<T>& h, int row, int rows, int pitch, uint16_t* apos) {
  for (int r = 0; r < rows; ++r)
    for (int q = h.rp[row + r]; q < h.rp[row + r + 1]; ++q) apos[q] = uint16_t(r * pitch + h.ci[q]);
}
// Every nonzero's place in its whole A_i held dense (pitch in values), CSR order: the streamed paths' fills (tile_col_kernel's,
// slab_stream_kernel's), whose A_i are at most kTileColMaxDim rows of tile_col_pitch(4) bytes.
template <typename T>
inline Pinned<uint16_t> matrix_places(const HostBatch<T>& h, int pitch) {
  static_assert(kTileColMaxDim * (tile_col_pitch(4) / 2) <= 65536, "a place in the dense A_i fits apos's 16 bits");
  Pinned<uint16_t> apos(size_t(std::max<int64_t>(h.total_nnz, 1)));
  for (int i = 0; i < h.batch; ++i) dense_places(h, h.row_off[i], h.m[i], pitch, apos.p);
  return apos;
}
// The streamed paths' parts a matrix (tile_col_kernel's, slab_stream_kernel's; a block a part): one, or, where the matrices
// (wave: blocks a wave) fill less than a wave, the most that keep the grid within one wave, at least a group a warp; $env
// (development sweeps) forces it.
inline int stream_parts(int64_t wave, int batch, int ng, int warps, const char* env) {
  int s = int(std::clamp<int64_t>(wave / int64_t(std::max(batch, 1)), 1, std::max(1, ng / warps)));
  if (const char* e = std::getenv(env))
    if (std::atoi(e) >= 1) s = std::min(std::atoi(e), ng);
  return s;
}
// batched-tile's streamed column-major path (tile_col_kernel): 16-bit column-major batches whose m_i and k_i are all
// multiples of 8 (every column of B and C starts on 16 bytes) and at most kTileColMaxDim, on sm_80 or newer.
// $SPB_SPMM_TILE_COL=0 (development A/Bs): tile_kernel's path instead.
template <typename T>
inline bool tile_col_streams(const HostBatch<T>& h) {
  if (sizeof(T) != 2 || h.layout != Layout::Col || h.max_m > kTileColMaxDim || h.max_k > kTileColMaxDim || misaligned16(h)) return false;
  const char* e = std::getenv("SPB_SPMM_TILE_COL");
  return !(e && std::atoi(e) == 0);
}
// batched-slab's streamed row-major path (slab_stream_kernel): 16-bit row-major batches whose m_i are all at most
// kTileColMaxDim and k_i at most 32 (one k chunk: kSlabStreamKC), nb a multiple of 4 (8-byte loads and stores), on sm_80
// or newer. H200, docs/spmm-notes.md: at k <= 32 it took 0.44-0.97x slab_kernel's time in 16 of the 18 cells of
// sstream_cells, sstream_check and sstream_k32_check (bf16 batch 8000 of d16, 8 a row, nb 64: 12.7 against 22.9 us) and
// 1.15x in 2 small batches (40 and 200 matrices); at k 33-64 0.80-1.24x, faster in 12 of 20 (f16 batch
// 1000 of d64, 16 a row, nb 256: 22.6 against 24.9; batch 900 at nb 224: 25.6 against 21.1), with no bound in the batch,
// nb or waves that separated the two; at k 65-128 (2 columns a lane, for the registers) 0.96-1.25x, slower in 5 of 8.
// $SPB_SPMM_SLAB_STREAM=0 (development A/Bs): slab_kernel instead.
constexpr int kSlabStreamKC = 1;  // slab_stream_kernel's KC as launched
template <typename T>
inline bool slab_streams(const HostBatch<T>& h) {
  if (sizeof(T) != 2 || h.layout != Layout::Row || h.max_m > kTileColMaxDim || h.max_k > 32 * kSlabStreamKC || h.nb % 4 != 0) return false;
  if (h.nb >= (1 << 26)) return false;  // the kernel's row offsets in B_i are ints (31 nb < 2^31)
  const char* e = std::getenv("SPB_SPMM_SLAB_STREAM");
  return !(e && std::atoi(e) == 0);
}
template <typename T>
class Tile : public KernelMethod<T> {
 public:
  Tile() : KernelMethod<T>("batched-tile", "ours", DeviceBatch<T>::kCsr) {}
  std::string not_applicable(const HostBatch<T>& h, const DeviceInfo& dev) const override {
    if (dev.prop.major < 8) return "needs tensor cores that take TF32, FP64 and BF16 (compute capability 8.0 or newer)";
    if (!tile_rows_for(h, dev))
      return "16 dense rows of the A_i with the most columns (" + std::to_string(h.max_k) + ", up to a " + std::to_string(kTilePanel) +
             "-column panel) and the pipeline's chunks of B_i do not fit shared memory";
    return "";
  }
  // The MP kernels read A only from their own arrays (apos, aval: places and values grouped by panel), the
  // one-panel kernels the batch's values: CSR (whose values they take) only for those.
  int parts_for(const HostBatch<T>& h) const override {
    return h.max_k <= kTilePanel || h.max_k <= tile_wide_kmax<T>() ? DeviceBatch<T>::kCsr : 0;  // (tile_wide: the CSR values)
  }
  void run(cudaStream_t s) override {
    const HostBatch<T>& h = *this->h_;
    if (grid_ == 0) return;
    const BatchView<T>& v = this->d_.v;
    if (col_s_ > 0) {
      with_col_kernel([&](auto K) {
        K<<<int(grid_), kTileColThreads, smem_, s>>>(v.row_off, v.col_off, v.rp, apos_, v.val, v.B, v.C, h.nb, col_s_, int(col_a_bytes_));
        CUDA_CHECK_LAUNCH();
      });
      return;
    }
    with_kernel([&](auto K) {
      K<<<int(grid_), 32 * warps_, smem_, s>>>(jobs_, apos_, aval_, qoff_, v.val, v.B, v.C, h.nb, h.max_k, nct_, per_, split_, part_, arrivals_);
      CUDA_CHECK_LAUNCH();
    });
  }

 private:
  void plan() override {
    const HostBatch<T>& h = *this->h_;
    const DeviceInfo& dev = *this->dev_;
    if (tile_col_streams(h)) return plan_col();
    bm_ = tile_rows_for(h, dev);
    if (const char* e = std::getenv("SPB_SPMM_TILE_BM")) {  // development sweeps: force the job height
      const int b = std::atoi(e);
      if ((b == 16 || b == 32 || b == 64) && tile_fits(h, dev, b)) bm_ = b;
    }
    warps_ = tile_warps_for(h, dev, bm_);
    mis_ = misaligned16(h);
    ms_ = tile_strips_for(h, dev, mis_, bm_);  // (may make bm_ 64)
    kc_ = tile_kc(h, ms_);
    const int64_t njobs = tile_jobs(h, bm_);
    wide_ = tile_wide(h, ms_);
    const int pw = wide_ ? kTileWidePanel : kTilePanel;  // A's columns a panel (the kernel's PW)
    const TileGeom<T> g = tile_geom(h, bm_, warps_, ms_, pw);
    mp_ = h.max_k > kTilePanel && !wide_;
    jobs_h_ = Pinned<TileJob>(size_t(std::max<int64_t>(njobs, 1)));
    if (!mp_) {  // one panel: CSR order, apos (16 bits: at most 64 x (kTilePanel + 8) places)
      static_assert(64 * (kTileWidePanel + 8) <= 65536, "a one-panel tile's places fit apos's 16 bits (wide panels too)");
      apos_h_ = Pinned<uint16_t>(size_t(std::max<int64_t>(h.total_nnz, 1)));
      for (int i = 0, j = 0; i < h.batch; ++i)
        for (int r0 = 0; r0 < h.m[i]; r0 += bm_) {
          const int row = h.row_off[i] + r0, bm = std::min(bm_, h.m[i] - r0), q0 = h.rp[row], q1 = h.rp[row + bm];
          jobs_h_[size_t(j++)] = TileJob{row, h.col_off[i], h.k[i], h.m[i], r0, bm, q0, q1, -1};
          dense_places(h, row, bm, g.apitch, apos_h_.p);
        }
    } else {  // places and values grouped by panel, each panel's run padded to whole groups of 8 (kTilePad places)
      std::vector<int> np(size_t(h.batch)), cnt;
      int64_t npanel = 0, ngroups = 0;
      for (int i = 0; i < h.batch; ++i) {
        np[size_t(i)] = std::max(1, ceil_div(h.k[i], kTilePanel));
        npanel += int64_t(ceil_div(h.m[i], bm_)) * np[size_t(i)];
      }
      for (int i = 0; i < h.batch; ++i)  // sizes first: a panel's run is at most 7 places of padding longer
        for (int r0 = 0; r0 < h.m[i]; r0 += bm_) {
          const int row = h.row_off[i] + r0, bm = std::min(bm_, h.m[i] - r0);
          ngroups += (h.rp[row + bm] - h.rp[row]) / 8 + np[size_t(i)];
        }
      if (ngroups * 8 >= (1ll << 31) || npanel >= (1ll << 31)) throw std::runtime_error("batched-tile: more nonzero places than an int indexes");
      apos_h_ = Pinned<uint16_t>(size_t(std::max<int64_t>(ngroups, 1)) * 8);
      aval_h_ = Pinned<T>(size_t(std::max<int64_t>(ngroups, 1)) * 8);
      qoff_h_ = Pinned<int>(size_t(std::max<int64_t>(npanel, 1)));
      std::vector<int64_t> at;
      int64_t e = 0;  // next group
      for (int i = 0, j = 0, pq = 0; i < h.batch; ++i)
        for (int r0 = 0; r0 < h.m[i]; r0 += bm_) {
          const int row = h.row_off[i] + r0, bm = std::min(bm_, h.m[i] - r0), q0 = h.rp[row], q1 = h.rp[row + bm];
          const int n = np[size_t(i)];
          cnt.assign(size_t(n), 0);
          for (int q = q0; q < q1; ++q) ++cnt[size_t(h.ci[q] / kTilePanel)];
          at.assign(size_t(n), 0);
          jobs_h_[size_t(j++)] = TileJob{row, h.col_off[i], h.k[i], h.m[i], r0, bm, int(e), q1, pq};
          for (int p = 0; p < n; ++p) {  // slots of panel p: [8 e, 8 e + cnt), padded to the next group
            at[size_t(p)] = 8 * e;
            const int64_t end = e + (cnt[size_t(p)] + 7) / 8;
            for (int64_t x = 8 * e + cnt[size_t(p)]; x < 8 * end; ++x) apos_h_[size_t(x)] = uint16_t(kTilePad), aval_h_[size_t(x)] = T(0);
            qoff_h_[size_t(pq + p)] = int(end);
            e = end;
          }
          for (int r = 0; r < bm; ++r)
            for (int q = h.rp[row + r]; q < h.rp[row + r + 1]; ++q) {
              const int p = h.ci[q] / kTilePanel;
              const int64_t x = at[size_t(p)]++;
              apos_h_[size_t(x)] = uint16_t(r * g.apitch + h.ci[q] - p * kTilePanel);
              aval_h_[size_t(x)] = h.val[size_t(q)];
            }
          pq += n;
        }
    }
    jobs_ = this->mem.template alloc<TileJob>(jobs_h_.n);
    apos_ = this->mem.template alloc<uint16_t>(apos_h_.n);
    aval_ = aval_h_.n ? this->mem.template alloc<T>(aval_h_.n) : nullptr;
    qoff_ = qoff_h_.n ? this->mem.template alloc<int>(qoff_h_.n) : nullptr;
    smem_ = g.bytes;
    nct_ = std::max(1, ceil_div(h.nb, g.BN));
    int res = 1;
    with_kernel([&](auto K) {
      allow_smem(K, smem_);
      CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&res, K, 32 * warps_, smem_));
    });
    // Up to 4 column tiles a block (A's fill costs about what a column tile's B and C move, so 1 a block
    // was 10-40 % slower; 16 lost 20 % to 4 on a 600-job grid), fewer while the grid is under half a
    // wave (between a half and one wave, halving measured 5-7 % slower: f32 d64, 32 a row, nb 64 at
    // 0.76 and 0.95 of a wave; the extra fills cost more than the idle slots).
    // Multi-panel: one (A refills its panels for every column tile anyway, so more a block only made
    // the blocks longer and fewer: 1.05-1.7x slower).
    // f32 / f64 with k <= 32 (one chunk a column tile, a small fill): at most 2 (d32, 16 a row, nb 256:
    // 52.9 against 4's 54.5 us in f64, column-major f32 29.5 against 32.6; 16-bit mixed, f16 d32 nb 256
    // 15.0 against 4's 13.5, so 16-bit keeps 4).
    per_ = mp_ && !tile_mp_old() ? 1 : std::min(nct_, h.max_k <= 32 && sizeof(T) >= 4 ? 2 : 4);
    const int64_t wave = int64_t(std::max(res, 1)) * dev.sms;
    while (per_ > 1 && 2 * njobs * ceil_div(nct_, per_) < wave) per_ = (per_ + 1) / 2;
    if (const char* e = std::getenv("SPB_SPMM_TILE"))
      if (std::atoi(e) >= 1) per_ = std::min(nct_, std::atoi(e));
    // A_i wider than a panel: split k where the grid is small (tile_split; partial sums added by the
    // last block of a column tile to arrive).
    split_ = per_ == 1 && mp_ ? tile_split(h, njobs * nct_, wave) : 1;
    if (mp_) {
      if (const char* e = std::getenv("SPB_SPMM_TILE_SPLIT"))  // development sweeps: force it
        if (std::atoi(e) >= 1) split_ = std::min(std::atoi(e), ceil_div(h.max_k, kTilePanel));
    }
    if (split_ > 1) {
      const size_t tiles = size_t(njobs) * size_t(nct_);
      part_ = this->mem.template alloc<acc_t<T>>(tiles * size_t(split_) * kTileThreads * ms_ * (kTileWN / 8) * 4);
      arrivals_ = this->mem.template alloc<int>(tiles);
      narrivals_ = tiles;
    }
    grid_ = h.nb > 0 ? njobs * ceil_div(nct_, per_) * split_ : 0;
    if (grid_ >= (1ll << 31)) throw std::runtime_error("batched-tile: more blocks than one grid holds");
    this->info_n["tile_rows"] = bm_;
    this->info_n["warps"] = warps_;
    this->info_n["strips_a_warp"] = ms_;
    this->info_n["a_panels"] = wide_ ? 1 : ceil_div(std::max(h.max_k, 1), kTilePanel);
    this->info_n["a_panel_cols"] = pw;
    this->info_s["a_fill"] = !mp_ ? "loads, one panel" : "groups of 8 places and values, a panel at a time";
    this->info_n["tile_cols"] = g.BN;
    this->info_n["chunk_rows"] = kc_;
    this->info_n["jobs"] = double(njobs);
    this->info_n["col_tiles_a_block"] = per_;
    this->info_n["k_split"] = split_;
    this->info_n["smem_bytes"] = double(smem_);
    this->info_n["blocks_sm"] = res;
    this->info_n["misaligned16"] = mis_ ? 1 : 0;  // the MIS kernels (misaligned16)
    this->info_s["math"] = tensor_math<T>();
  }
  // The streamed column-major path (tile_col_kernel). Parts: a block a matrix, or, where the matrices fill less than a
  // wave, the most parts of its 16-column groups that keep the grid within one wave, at least a group a warp. (Each part
  // fills A_i again, and a warp with one or two groups has nothing to load ahead. H200, docs/spmm-notes.md: at 0.6-1.4
  // waves of matrices one part a matrix took 0.68-0.94x the time of a grid of two waves (f16 batch 600 of d96, 8 a row,
  // nb 256: 21.3 against 31.4 us), at 0.08-0.13 waves 4-8 parts took 0.31-0.74x one part's (batch 40 of d128, nb 512:
  // 8.2 against 26.3), and half a wave's 6 parts 10.1 there.) Ring: 3 stages where k <= 64 and each warp streams 4 or
  // more groups (one part, nb >= 256): 0.94-0.96x the registers' time on the 3 such cells of tcol_cells, 0.96-1.13x on
  // the 6 other k <= 64 cells, 1.05-1.80x at k 72-128 (its shared memory halves the blocks an SM).
  void plan_col() {
    const HostBatch<T>& h = *this->h_;
    const DeviceInfo& dev = *this->dev_;
    col_kc_ = std::max(1, ceil_div(h.max_k, 32));
    apos_h_ = matrix_places(h, tile_col_pitch(col_kc_) / 2);
    apos_ = this->mem.template alloc<uint16_t>(apos_h_.n);
    int res = 1;
    auto occupancy = [&] {
      col_a_bytes_ = tile_col_a_bytes(col_kc_, ceil_div(std::max(h.max_m, 1), 32) * 32);  // whole 32-row groups (tile_col_kernel)
      smem_ = col_a_bytes_ + tile_col_smem(col_kc_, 0, col_ns_);
      with_col_kernel([&](auto K) {
        allow_smem(K, smem_);
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&res, K, kTileColThreads, smem_));
      });
    };
    col_ns_ = 0;
    occupancy();
    const int ng = ceil_div(std::max(h.nb, 1), 16);
    col_s_ = stream_parts(int64_t(std::max(res, 1)) * dev.sms, h.batch, ng, kTileColWarps, "SPB_SPMM_TILE_COL_S");
    col_ns_ = col_kc_ <= 2 && col_s_ == 1 && ng >= 4 * kTileColWarps ? 3 : 0;
    if (const char* e = std::getenv("SPB_SPMM_TILE_COL_NS"))  // development A/Bs: 0 (registers) or 3 (a ring of 3 stages)
      col_ns_ = std::atoi(e) == 3 ? 3 : 0;
    occupancy();
    grid_ = h.nb > 0 ? int64_t(h.batch) * col_s_ : 0;
    if (grid_ >= (1ll << 31)) throw std::runtime_error("batched-tile: more blocks than one grid holds");
    this->info_s["path"] = "column-major streamed: C_i^T = B_i^T A_i^T, B_i's columns straight to the tensor cores";
    this->info_n["k_chunks"] = col_kc_;
    this->info_n["ring_stages"] = col_ns_;
    this->info_n["col_parts"] = col_s_;
    this->info_n["smem_bytes"] = double(smem_);
    this->info_n["blocks_sm"] = res;
    this->info_s["math"] = tensor_math<T>();
  }
  template <typename F>
  void with_col_kernel(F&& f) const {
    if constexpr (sizeof(T) == 2) {
      auto by_ns = [&](auto NSc) {
        constexpr int NS = decltype(NSc)::value;
        if (col_kc_ == 1) f(tile_col_kernel<T, 1, NS>);
        else if (col_kc_ == 2) f(tile_col_kernel<T, 2, NS>);
        else if (col_kc_ == 3) f(tile_col_kernel<T, 3, NS>);
        else f(tile_col_kernel<T, 4, NS>);
      };
      if (col_ns_ == 3) by_ns(std::integral_constant<int, 3>{});
      else by_ns(std::integral_constant<int, 0>{});
    }
  }
  // f(the kernel for the batch's layout and bm_).
  template <typename F>
  void with_kernel(F&& f) const {
    with_layout(this->h_->layout, [&](auto L) {
      constexpr Layout LL = decltype(L)::value;
      auto by_bm = [&](auto MP) {
        constexpr bool M = decltype(MP)::value;
        auto by_kc = [&](auto KCc) {  // chunk rows: tile_kc (64 only for 16-bit one-panel batches and two strips)
          constexpr int KC = decltype(KCc)::value;
          auto by_w = [&](auto Wc) {
            constexpr int W = decltype(Wc)::value;
            auto by_mis = [&](auto Xc) {
              constexpr bool X = decltype(Xc)::value;
              // Two strips a warp in 64-row jobs (tile_strips_for): 16-bit, aligned, 4 warps.
              if constexpr (sizeof(T) == 2 && !X && W == kTileWarps) {
                if constexpr (!M) {
                  if (wide_) return f(tile_kernel<T, LL, 64, false, KC, W, false, 2, kTileWidePanel>);
                }
                if (ms_ == 2) return f(tile_kernel<T, LL, 64, M, KC, W, X, 2>);
              }
              if constexpr (M && KC == 64) return;  // (MP kernels take 64-row chunks with two strips only)
              if (bm_ == 16) f(tile_kernel<T, LL, 16, M, KC, W, X>);
              else if (bm_ == 32) f(tile_kernel<T, LL, 32, M, KC, W, X>);
              else f(tile_kernel<T, LL, 64, M, KC, W, X>);
            };
            if constexpr (sizeof(T) == 2) {
              if (mis_) return by_mis(std::true_type{});
            }
            by_mis(std::false_type{});
          };
          // 8 warps (warps_, tile_warps_for) only in f64 one-panel kernels.
          if constexpr (sizeof(T) == 8 && !M) {
            if (warps_ == 8) return by_w(std::integral_constant<int, 8>{});
          }
          by_w(std::integral_constant<int, kTileWarps>{});
        };
        if constexpr (sizeof(T) == 2) {
          if (kc_ == 64) by_kc(std::integral_constant<int, 64>{});
          else by_kc(std::integral_constant<int, 32>{});
        } else {
          by_kc(std::integral_constant<int, 32>{});
        }
      };
      if (mp_) by_bm(std::true_type{});
      else by_bm(std::false_type{});
    });
  }
  void upload_own(cudaStream_t s) override {
    upload_pinned(jobs_, jobs_h_, s);
    upload_pinned(apos_, apos_h_, s);
    if (aval_) upload_pinned(aval_, aval_h_, s);
    if (qoff_) upload_pinned(qoff_, qoff_h_, s);
    if (arrivals_) CUDA_CHECK(cudaMemsetAsync(arrivals_, 0, narrivals_ * sizeof(int), s));  // the kernel leaves them 0 again
  }
  Pinned<TileJob> jobs_h_;
  Pinned<uint16_t> apos_h_;  // places in the tile: CSR order (one panel), grouped by panel (MP)
  Pinned<T> aval_h_;         // MP: the values in apos's order
  Pinned<int> qoff_h_;       // MP: the panels' ends (groups of 8)
  TileJob* jobs_ = nullptr;
  uint16_t* apos_ = nullptr;
  T* aval_ = nullptr;
  int* qoff_ = nullptr;
  bool mp_ = false;  // an A_i wider than a panel: the MP kernels
  bool mis_ = false;  // misaligned16: the MIS kernels
  acc_t<T>* part_ = nullptr;  // split k: partial sums of every (column tile, split), and arrivals a tile
  int* arrivals_ = nullptr;
  size_t narrivals_ = 0;
  int bm_ = 16, nct_ = 1, per_ = 1, split_ = 1, warps_ = kTileWarps, ms_ = 1, kc_ = 32;  // kc_: the kernel's KC (tile_kc)
  int col_s_ = 0, col_kc_ = 1, col_ns_ = 0;  // the streamed column-major path (col_s_ > 0): parts a matrix, 32-value chunks of k, ring stages
  size_t col_a_bytes_ = 0;  // its dense A_i's bytes (where the ring starts)
  bool wide_ = false;  // tile_wide: A_i held whole in one panel of kTileWidePanel columns
  int64_t grid_ = 0;
  size_t smem_ = 0;
};

// Ours: batched-slab (see slab_kernel), both layouts, on tensor cores (sm_80 and newer). A block a
// (matrix, BN-column tile): A_i whole and the B tile in shared memory at once where the largest A_i and a
// tile fit a block (slab_fits; the planner's rules take slab only there); else a block a (slice of R rows of
// a matrix, BN-column tile), R the most 16-row strips that fit beside the tile (slab_plan).
// 16-bit batches off alignment (misaligned16) whose MIS kernels move each B tile and C tile as one flat run through
// shared memory that SlabGeom sizes (slab_kernel): column-major, and row-major where one bn-column tile covers nb (MIS
// 3). The values of a run's line (SlabGeom's fw), 0 for none.
// Row-major runs against the MIS 1 / 2 kernels (H200, graph mode; docs/spmm-notes.md "row-major runs"): where rows are
// only 2- or 4-byte aligned (nb % 4 != 0: MIS 2's word copies, C in 2- and 4-byte pieces) 0.99-1.85x as fast in the
// 21 such cells (d64, nb 105: 24.6 against 45.7 us); where they are 8-byte aligned (nb % 4 == 0: MIS 1's 8-byte copies
// and 4-byte C stores) the runs' fixed cost a block (the unpack pass, a barrier before C) showed: 1.00-1.51x in the
// 15 cells whose B_i hold >= 2560 values (k nb; d96, nb 100: 18.1 against 26.1), 0.82-1.09x in the 22 below (d24, nb
// 20: 34.2 against 28.2). Hence runs there only from k nb = 2560 (the batch's mean k). On a check set written after
// the bound, the bound's pick was within 2 % of the better of the two in 18 of 22 cells and 6-9 % slower in four
// (below the bound, where the runs won).
template <typename T>
inline int slab_flat_w(const HostBatch<T>& h, int bn) {
  if (sizeof(T) != 2 || !misaligned16(h)) return 0;
  if (h.layout == Layout::Col) return bn;
  if (h.nb > bn) return 0;
  return h.nb % 4 != 0 || double(h.total_cols) / std::max(h.batch, 1) * h.nb >= 2560 ? h.nb : 0;
}
// ms: strips a warp's pair (slab_kernel's MS; SlabPlan::ms).
template <typename T>
inline SlabGeom<T> slab_geom(const HostBatch<T>& h, int bn, int rows = 0, int ms = 1) {
  return SlabGeom<T>(rows ? rows : h.max_m, h.max_k, bn, h.layout == Layout::Row, ms, slab_flat_w(h, bn));
}
// BN: the smallest of 32, 64, 128 that covers nb (128 past it), halved while a block's shared memory
// would leave fewer than two blocks an SM (H200, f64 d80, nb 192: 115.9 us at 128 columns and one block
// an SM, 90.7 at 64). $SPB_SPMM_SLAB_BN (development sweeps only) forces it.
template <typename T>
inline int slab_cols_for(const HostBatch<T>& h, const DeviceInfo& dev, int ms = 1) {
  int bn = h.nb <= 32 ? 32 : h.nb <= 64 ? 64 : 128;
  while (bn > 32 && slab_geom(h, bn, 0, ms).bytes > dev.budget_for(2)) bn /= 2;
  if (const char* e = std::getenv("SPB_SPMM_SLAB_BN")) {
    const int b = std::atoi(e);
    if (b == 32 || b == 64 || b == 128) bn = b;
  }
  return bn;
}

// A geometry a block can take: its shared memory within `budget` and its A tile within 16-bit positions (apos).
template <typename T>
inline bool slab_geom_ok(const SlabGeom<T>& g, size_t budget) {
  return g.bytes <= budget && int64_t(g.mp) * g.apitch <= kSlabTileMax;
}
template <typename T>
inline bool slab_fits(const HostBatch<T>& h, const DeviceInfo& dev) {
  return slab_geom_ok(slab_geom(h, slab_cols_for(h, dev)), dev.budget_one());
}
// Rows of a block (R, a multiple of 16): all of the largest A_i where it and the B tile leave two blocks an
// SM (and its dense tile is within kSlabTileMax values, apos's 16 bits: 16-bit A_i of 1016-1300 columns take
// 48-row slices instead of 64); else slices, each staging the B tile again: the most rows up to 64 that leave two blocks an SM (one
// block an SM where two would leave fewer than 32 rows), halved while the blocks (slices x column tiles)
// are fewer than half the SMs: fewer, taller slices re-read less of B, but a small batch needs the blocks
// (measured: docs/spmm-notes.md "batched-slab: slices of rows"). 0 where 16 rows and a 32-column tile
// exceed a block's shared memory. $SPB_SPMM_SLAB_ROWS (development sweeps only) forces R.
struct SlabPlan {
  int bn = 32, rows = 0;
  bool sliced = false;  // rows fewer than the largest A_i's (rounded to 16-row strips)
  int ms = 1;           // strips a warp's pair (slab_plan)
  int warps = kSlabWarps;  // warps a block (slab_warps_for)
};
// Blocks of a plan: slices of every A_i x column tiles.
template <typename T>
inline int64_t slab_blocks(const HostBatch<T>& h, const SlabPlan& p) {
  int64_t n = 0;
  for (int i = 0; i < h.batch; ++i) n += ceil_div(h.m[i], p.rows);
  return n * ceil_div(std::max(h.nb, 1), p.bn);
}
template <typename T>
inline SlabPlan slab_plan_ms(const HostBatch<T>& h, const DeviceInfo& dev, int ms) {
  SlabPlan p;
  p.ms = ms;
  p.bn = slab_cols_for(h, dev, ms);
  const int whole = (std::max(h.max_m, 1) + 15) / 16 * 16;
  int forced = 0;
  if (const char* e = std::getenv("SPB_SPMM_SLAB_ROWS")) forced = std::atoi(e) / 16 * 16;
  if (forced > 0 && forced < whole && slab_geom_ok(slab_geom(h, p.bn, forced, ms), dev.budget_one())) {
    p.rows = forced, p.sliced = true;
    return p;
  }
  if (slab_geom_ok(slab_geom(h, p.bn, 0, ms), dev.budget_for(2))) {
    p.rows = whole;
    return p;
  }
  const size_t one = dev.budget_one();
  auto most = [&](int bn, size_t budget) {
    int r = 0;
    while (r + 16 <= std::min(64, whole) && slab_geom_ok(slab_geom(h, bn, r + 16, ms), budget)) r += 16;
    return r;
  };
  int r = 0;
  for (; p.bn >= 32; p.bn /= 2) {  // slab_cols_for gives 32 here unless forced wider
    r = most(p.bn, dev.budget_for(2));
    if (r < 32) {
      const int r1 = most(p.bn, one);
      if (r1 >= 32 || r == 0) r = r1;
    }
    if (r > 0 || p.bn == 32) break;
  }
  if (r == 0) {
    p.rows = 0;
    return p;
  }
  while (r > 16 && 2 * slab_blocks(h, SlabPlan{p.bn, r, false, ms}) < dev.sms) r = std::max(16, (r / 2 + 15) / 16 * 16);
  p.rows = r, p.sliced = r < whole;
  return p;
}

// Strips a warp's pair (slab_kernel's MS): 2, a 32 x 32 warp tile, for f32 with k_i >= 64 (the kernel's H
// loop) where the plan with two (its geometry: the strips padded to pairs) keeps all of A_i a block (not
// sliced) and a block has at least as many pairs of two strips as warps (the largest A_i's strips / 2 x the
// tile's 32-column groups >= kSlabWarps); else the plan with one. Each B fragment and its 3xTF32 split
// then serve two A fragments, and a k step has twice the independent products. Measured (H100, graph
// mode; docs/spmm-notes.md "batched-slab: two strips a pair"), in that class: 0.82-0.99x the time of one
// strip in 14 of 15 cells (d128 32 a row nb 256 62.8 against 77.0 us; d120 30 a row nb 64 24.9 against
// 29.4; mixed d64-128 nb 128 29.2 against 34.7), d112 nb 96 1.01x; outside it 1.01-1.28x slower (slices
// of d144-d1024; fewer pairs than warps: batch 100 of d64 column-major nb 64, batch 10 of d256 nb 64).
// 16-bit (1.04-1.11x slower) and f64 (1.05-1.32x) keep one, and only f32 kernels are built with two.
// $SPB_SPMM_SLAB_MS (development A/Bs only) forces 1 or 2 (f32, k >= 64, where two's plan has rows).
template <typename T>
inline SlabPlan slab_plan_strips(const HostBatch<T>& h, const DeviceInfo& dev) {
  const SlabPlan one = slab_plan_ms(h, dev, 1);
  if (sizeof(T) != 4 || h.max_k < 64) return one;
  const SlabPlan two = slab_plan_ms(h, dev, 2);
  if (two.rows == 0) return one;
  if (const char* e = std::getenv("SPB_SPMM_SLAB_MS")) return std::atoi(e) == 2 ? two : one;
  const int pairs = ceil_div(ceil_div(two.rows, 16), 2) * ceil_div(std::min(two.bn, std::max(h.nb, 1)), kSlabWN);
  return !two.sliced && pairs >= kSlabWarps ? two : one;
}
// Warps a block (slab_kernel's W): 12 for 16-bit row-major batches whose block has pairs (its 16-row strips x
// the tile's 32-column groups) enough for three rounds of 8 warps or more and fewer rounds of 12, else 8
// (kSlabWarps). A round is a pair's k loop and store; a block holds its shared memory until its last warp's
// last round, and 8 warps left part of their last round idle (d80: 5 strips x 4 groups = 20 pairs, 3 rounds
// of 8, 2 of 12). Measured (H100, graph mode; docs/spmm-notes.md "batched-slab: 12 warps for 16-bit"), 12
// against 8 warps on 22 cells: where the rule gives 12, 0.82-0.95x the time in 9 of 13 (d72 18 a row nb 192:
// 27.8 against 32.6 us; d80 20 a row nb 192: 29.3 against 31.4), within 1 % in 3, 1.035x in one (d128 32
// a row nb 128, 500 blocks); where it gives 8, 12 ran 1.06-1.15x slower in all 7 (d64 16 a row nb 256: 31.3
// against 29.5; d48 nb 96: 13.7 against 12.4: 4 blocks an SM of 12 warps against 6 of 8, fewer warps busy).
// Column-major (C through a staging of kSlabWarps warps) keeps 8: 0.98 and 1.02x. $SPB_SPMM_SLAB_WARPS
// (development A/Bs only) forces 8 or 12 where 12 may run.
template <typename T>
inline int slab_warps_for(const HostBatch<T>& h, const SlabPlan& p) {
  if (sizeof(T) != 2 || h.layout != Layout::Row || p.rows == 0) return kSlabWarps;
  if (const char* e = std::getenv("SPB_SPMM_SLAB_WARPS")) {
    const int w = std::atoi(e);
    if (w == 8 || w == 12) return w;
  }
  const int pairs = ceil_div(p.rows, 16 * p.ms) * ceil_div(std::min(p.bn, std::max(h.nb, 1)), kSlabWN);
  const int r8 = ceil_div(pairs, 8), r12 = ceil_div(pairs, 12);
  return r8 >= 3 && r12 < r8 ? 12 : kSlabWarps;
}
template <typename T>
inline SlabPlan slab_plan(const HostBatch<T>& h, const DeviceInfo& dev) {
  SlabPlan p = slab_plan_strips(h, dev);
  p.warps = slab_warps_for(h, p);
  return p;
}

// f32 batched-slab: the k from which 3xTF32's small terms get an accumulator of their own. H100, against
// one accumulator (docs/spmm-notes.md "3xTF32's small terms apart"): k 96-112 1.02-1.04x faster, k 128-1024
// 1.01-1.19x, k 64 and 16 1.05-1.14x slower. SPB_SPMM_SLAB_SACC_K overrides it in development A/Bs.
inline int slab_small_acc_k() {
  static const int k = [] {
    const char* e = std::getenv("SPB_SPMM_SLAB_SACC_K");
    return e && std::atoi(e) > 0 ? std::atoi(e) : 96;
  }();
  return k;
}

template <typename T>
class Slab : public KernelMethod<T> {
 public:
  Slab() : KernelMethod<T>("batched-slab", "ours", DeviceBatch<T>::kCsr) {}
  std::string not_applicable(const HostBatch<T>& h, const DeviceInfo& dev) const override {
    if (dev.prop.major < 8) return "needs tensor cores that take TF32, FP64 and BF16 (compute capability 8.0 or newer)";
    if (slab_plan(h, dev).rows == 0) {
      const SlabGeom<T> g = slab_geom(h, 32, 16);
      if (g.bytes > dev.budget_one())
        return "16 rows of the widest A_i dense (16 x " + std::to_string(h.max_k) + ") and a 32-column tile of B_i need " + std::to_string(g.bytes) +
               " bytes of shared memory, more than a block may have (" + std::to_string(dev.smem_optin) + ")";
      return "16 rows of the widest A_i dense (16 x " + std::to_string(h.max_k) + ", padded) are " + std::to_string(int64_t(g.mp) * g.apitch) +
             " values, more than the kernel's 16-bit positions reach (" + std::to_string(kSlabTileMax) + ")";
    }
    return "";
  }
  void run(cudaStream_t s) override {
    const HostBatch<T>& h = *this->h_;
    if (grid_ == 0) return;
    if (stream_s_ > 0) {
      const BatchView<T>& v = this->d_.v;
      with_stream_kernel([&](auto K) {
        K<<<int(grid_), 32 * stream_w_, smem_, s>>>(v.row_off, v.col_off, v.rp, apos_, v.val, v.B, v.C, h.nb, stream_s_);
        CUDA_CHECK_LAUNCH();
      });
      return;
    }
    with_kernel([&](auto K) {
      K<<<int(grid_), 32 * warps_, smem_, s>>>(jobs_, apos_, this->d_.v.val, this->d_.v.B, this->d_.v.C, h.nb, rows_, h.max_k, nct_);
      CUDA_CHECK_LAUNCH();
    });
  }

 private:
  void plan() override {
    const HostBatch<T>& h = *this->h_;
    if (slab_streams(h)) return plan_stream();
    const SlabPlan sp = slab_plan(h, *this->dev_);
    bn_ = sp.bn;
    rows_ = sp.rows;
    ms_ = sp.ms;
    warps_ = sp.warps;
    mis_ = misaligned16(h);
    const SlabGeom<T> g = slab_geom(h, bn_, rows_, ms_);
    int njobs = 0;
    for (int i = 0; i < h.batch; ++i) njobs += ceil_div(h.m[i], rows_);
    jobs_h_ = Pinned<SlabJob>(size_t(std::max(njobs, 1)));
    apos_h_ = Pinned<uint16_t>(size_t(std::max<int64_t>(h.total_nnz, 1)));
    for (int i = 0, j = 0; i < h.batch; ++i)
      for (int r0 = 0; r0 < h.m[i]; r0 += rows_) {
        const int row = h.row_off[i] + r0, m = std::min(rows_, h.m[i] - r0);
        jobs_h_[size_t(j++)] = SlabJob{row, h.col_off[i], h.k[i], m, h.rp[row], h.rp[row + m], r0, h.m[i]};
        dense_places(h, row, m, g.apitch, apos_h_.p);  // places < kSlabTileMax (slab_plan)
      }
    jobs_ = this->mem.template alloc<SlabJob>(jobs_h_.n);
    apos_ = this->mem.template alloc<uint16_t>(apos_h_.n);
    smem_ = g.bytes;
    nct_ = std::max(1, ceil_div(h.nb, bn_));
    int res = 1;
    with_kernel([&](auto K) {
      allow_smem(K, smem_);
      CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&res, K, 32 * warps_, smem_));
    });
    grid_ = h.nb > 0 ? int64_t(njobs) * nct_ : 0;
    if (grid_ >= (1ll << 31)) throw std::runtime_error("batched-slab: more blocks than one grid holds");
    this->info_n["tile_cols"] = bn_;
    this->info_n["slice_rows"] = sp.sliced ? rows_ : 0;  // 0: whole A_i a block
    this->info_n["strips_a_warp"] = ms_;
    this->info_n["warps"] = warps_;
    this->info_n["jobs"] = njobs;
    this->info_n["smem_bytes"] = double(smem_);
    this->info_n["blocks_sm"] = res;
    this->info_n["misaligned16"] = mis_ ? 1 : 0;  // the MIS kernels (misaligned16)
    this->info_n["mis_words"] = mis_words() ? 1 : 0;  // of them, the ones that copy B's rows a word a lane (slab_kernel's MIS 2)
    this->info_n["mis_runs"] = mis_runs() ? 1 : 0;    // of them, the ones that move B_i and C as runs (slab_kernel's MIS 3)
    this->info_s["math"] = tensor_math<T>();
    if (sizeof(T) == 4) this->info_n["small_terms_apart"] = small_terms_apart(h);
  }
  // The streamed row-major path (slab_stream_kernel): a block a matrix, or, where the matrices fill less than a wave, the
  // most parts of its column groups that keep the grid within one wave, at least a group a warp (tile_col_kernel's rule).
  void plan_stream() {
    const HostBatch<T>& h = *this->h_;
    const DeviceInfo& dev = *this->dev_;
    apos_h_ = matrix_places(h, tile_col_pitch(kSlabStreamKC) / 2);
    apos_ = this->mem.template alloc<uint16_t>(apos_h_.n);
    smem_ = tile_col_a_bytes(kSlabStreamKC, std::max(ceil_div(h.max_m, 8) * 8, 8));  // whole n8 tiles of rows
    // Warps a block: the most of 1, 2, 4 that leave each warp 4 or more of the matrix's 32-column groups to stream (the
    // next group's rows load while a warp multiplies this one; a warp's last group has nothing to overlap). On the k <= 64
    // cells of sstream_cells it picked the fastest of the three in all 10 (bf16 batch 2000 of d32, nb 128, 4 groups: 1 warp
    // 8.9 us, 2 10.2, 4 12.7; f16 batch 1000 of d64, nb 256, 8 groups: 2 warps 22.6, 4 24.4, 1 31.3).
    const int ng = ceil_div(std::max(h.nb, 1), 32);
    stream_w_ = ng >= 16 ? 4 : ng >= 8 ? 2 : 1;
    if (const char* e = std::getenv("SPB_SPMM_SLAB_STREAM_W"))  // development A/Bs: force it (1, 2 or 4)
      if (std::atoi(e) == 1 || std::atoi(e) == 2 || std::atoi(e) == 4) stream_w_ = std::atoi(e);
    int res = 1;
    with_stream_kernel([&](auto K) {
      allow_smem(K, smem_);
      CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&res, K, 32 * stream_w_, smem_));
    });
    stream_s_ = stream_parts(int64_t(std::max(res, 1)) * dev.sms, h.batch, ng, stream_w_, "SPB_SPMM_SLAB_STREAM_S");
    grid_ = h.nb > 0 ? int64_t(h.batch) * stream_s_ : 0;
    if (grid_ >= (1ll << 31)) throw std::runtime_error("batched-slab: more blocks than one grid holds");
    this->info_s["path"] = "row-major streamed: C_i^T = B_i^T A_i^T, pairs of B_i's rows straight to the tensor cores";
    this->info_n["k_chunks"] = kSlabStreamKC;
    this->info_n["warps"] = stream_w_;
    this->info_n["col_parts"] = stream_s_;
    this->info_n["smem_bytes"] = double(smem_);
    this->info_n["blocks_sm"] = res;
    this->info_s["math"] = tensor_math<T>();
  }
  template <typename F>
  void with_stream_kernel(F&& f) const {
    if constexpr (sizeof(T) == 2) {
      auto by_w = [&](auto Wc) { f(slab_stream_kernel<T, kSlabStreamKC, decltype(Wc)::value>); };
      if (stream_w_ == 1) by_w(std::integral_constant<int, 1>{});
      else if (stream_w_ == 2) by_w(std::integral_constant<int, 2>{});
      else by_w(std::integral_constant<int, 4>{});
    }
  }
  // Row-major MIS kernels: B_i and C as flat runs (MIS 3) where one column tile covers nb; else B's rows a word a lane
  // (MIS 2) where nb % 4 != 0 (see slab_kernel's MIS).
  bool mis_runs() const { return mis_ && this->h_->layout == Layout::Row && slab_flat_w(*this->h_, bn_) > 0; }
  bool mis_words() const { return mis_ && this->h_->layout == Layout::Row && !mis_runs() && this->h_->nb % 4 != 0; }
  // f32 whose largest k reaches slab_small_acc_k(): the kernel with the small terms apart (FK 1); what
  // with_kernel launches and what the result's info says.
  static bool small_terms_apart(const HostBatch<T>& h) { return sizeof(T) == 4 && h.max_k >= slab_small_acc_k(); }
  // f(the kernel for the batch's layout and bn_).
  template <typename F>
  void with_kernel(F&& f) const {
    with_layout(this->h_->layout, [&](auto L) {
      constexpr Layout LL = decltype(L)::value;
      // f32 with k_i of 64 or more: the addresses made once a warp (H, see slab_kernel), and where they reach
      // slab_small_acc_k() the small terms apart (FK 1); f64 with k <= 32: m8n8k4 pairs (FK 4, see slab_kernel).
      auto by_bn = [&](auto hc, auto fk, auto ms, auto w) {
        constexpr bool H = decltype(hc)::value;
        constexpr int FK = decltype(fk)::value, MS = decltype(ms)::value, W = decltype(w)::value;
        auto by_mis = [&](auto Xc) {
          constexpr int X = decltype(Xc)::value;
          if (bn_ == 32) f(slab_kernel<T, LL, 32, H, FK, MS, W, X>);
          else if (bn_ == 64) f(slab_kernel<T, LL, 64, H, FK, MS, W, X>);
          else f(slab_kernel<T, LL, 128, H, FK, MS, W, X>);
        };
        if constexpr (sizeof(T) == 2) {
          if constexpr (LL == Layout::Row) {
            if (mis_runs()) return by_mis(std::integral_constant<int, 3>{});
            if (mis_words()) return by_mis(std::integral_constant<int, 2>{});
          }
          if (mis_) return by_mis(std::integral_constant<int, 1>{});
        }
        by_mis(std::integral_constant<int, 0>{});
      };
      // 12 warps (warps_, slab_warps_for) only in 16-bit row-major kernels.
      auto go1 = [&](auto hc, auto fk, auto ms) {
        if constexpr (sizeof(T) == 2 && LL == Layout::Row) {
          if (warps_ == 12) return by_bn(hc, fk, ms, std::integral_constant<int, 12>());
        }
        by_bn(hc, fk, ms, std::integral_constant<int, kSlabWarps>());
      };
      // Two strips a pair (ms_, slab_plan) only where the kernel has the H loop, FK as the batch's.
      auto go = [&](auto hc, auto fk) {
        if constexpr (sizeof(T) == 4 && decltype(hc)::value) {
          if (ms_ == 2) return go1(hc, fk, std::integral_constant<int, 2>());
        }
        go1(hc, fk, std::integral_constant<int, 1>());
      };
      using K0 = std::integral_constant<int, 0>;
      if constexpr (sizeof(T) == 8) {
        if (this->h_->max_k <= 32) go(std::true_type(), std::integral_constant<int, 4>());
        else go(std::true_type(), K0());
      } else if constexpr (sizeof(T) != 4) go(std::true_type(), K0());
      else if (small_terms_apart(*this->h_)) go(std::true_type(), std::integral_constant<int, 1>());
      else if (this->h_->max_k >= 64) go(std::true_type(), K0());
      else go(std::false_type(), K0());
    });
  }
  void upload_own(cudaStream_t s) override { upload_pinned(jobs_, jobs_h_, s); upload_pinned(apos_, apos_h_, s); }
  Pinned<SlabJob> jobs_h_;
  Pinned<uint16_t> apos_h_;
  SlabJob* jobs_ = nullptr;
  uint16_t* apos_ = nullptr;
  int bn_ = 32, rows_ = 16, nct_ = 1, ms_ = 1, warps_ = kSlabWarps;
  int stream_s_ = 0, stream_w_ = 4;  // the streamed path (stream_s_ > 0): parts a matrix, warps a block
  bool mis_ = false;  // misaligned16: the MIS kernels
  int64_t grid_ = 0;
  size_t smem_ = 0;
};

// Ours: batched-mma (see mma_kernel), both layouts, any dim, on tensor cores (sm_80 and newer). A as
// 32-column bitmaps (MmaBitmap, built in setup, uploaded with B in e2e mode). NT = C columns a block:
// 16, 32 or 64 (f64: 32), the smallest that covers nb, several column tiles past it, halved while the
// grid is under 8 blocks an SM. KW = warps that
// split a strip's groups: 1, 2 or 4 as the largest A_i has 1, 2-3 or >= 4 groups (long rows are then
// spread over warps; short ones give each warp its own strip, and blocks of 64 rows).
template <typename T>
class MmaTiles : public Method<T> {
 public:
  std::string name() const override { return "batched-mma"; }
  std::string family() const override { return "ours"; }
  std::string not_applicable(const HostBatch<T>&, const DeviceInfo& dev) const override {
    if (dev.prop.major < 8) return "needs tensor cores that take TF32, FP64 and BF16 (compute capability 8.0 or newer)";
    return "";
  }
  void setup(const HostBatch<T>& h, const DeviceInfo& dev, cudaStream_t s) override {
    h_ = &h;
    const int nt_max = sizeof(T) == 8 ? 32 : 64;
    nt_ = h.nb <= 16 ? 16 : h.nb <= 32 ? 32 : nt_max;
    const int groups = (h.max_k + kMmaK - 1) / kMmaK;
    kw_ = groups >= 4 ? 4 : groups >= 2 ? 2 : 1;
    const int tile_rows = 16 * (kMmaWarps / kw_);
    bm_.build(h, tile_rows);
    // Few, large matrices give few tiles: narrower column tiles until the grid has 8 blocks an SM
    // (ncu, 10 matrices of 256 rows, nb 64, column-major: 160 blocks, 7.6 % achieved occupancy).
    while (nt_ > 16 && bm_.tiles * ceil_div(h.nb, nt_) < 8ll * dev.sms) nt_ /= 2;
    nct_ = std::max(1, ceil_div(h.nb, nt_));
    if (bm_.tiles * nct_ >= (1ll << 31)) throw std::runtime_error("batched-mma: more tiles than one grid holds");
    row_off_ = this->mem.template alloc<int>(h.row_off.n);
    col_off_ = this->mem.template alloc<int>(h.col_off.n);
    tile_mat_ = this->mem.template alloc<int>(bm_.tile_mat.n);
    mbase_ = this->mem.template alloc<long long>(bm_.mbase.n);
    words_ = this->mem.template alloc<MmaWord>(bm_.words.n);
    vals_ = this->mem.template alloc<T>(bm_.vals.n);
    B_ = this->mem.template alloc<T>(h.B.n);
    C_ = this->mem.template alloc<T>(size_t(h.total_rows) * h.nb);
    upload(s);
    with_cfg([&](auto K, size_t bytes) { allow_smem(K, bytes); });
    this->info_n["tile_rows"] = tile_rows;
    this->info_n["tile_cols"] = nt_;
    this->info_n["k_split"] = kw_;
    this->info_n["tiles"] = double(bm_.tiles);
    this->info_n["col_tiles"] = nct_;
    this->info_n["a_bytes"] = double(bm_.words.bytes() + bm_.vals.bytes());
    this->info_s["math"] = tensor_math<T>();
  }
  void upload(cudaStream_t s) override {
    const HostBatch<T>& h = *h_;
    upload_pinned(row_off_, h.row_off, s); upload_pinned(col_off_, h.col_off, s); upload_pinned(tile_mat_, bm_.tile_mat, s);
    upload_pinned(mbase_, bm_.mbase, s); upload_pinned(words_, bm_.words, s); upload_pinned(vals_, bm_.vals, s); upload_pinned(B_, h.B, s);
  }
  void run(cudaStream_t s) override {
    const HostBatch<T>& h = *h_;
    if (bm_.tiles == 0 || h.nb == 0) return;
    with_cfg([&](auto K, size_t bytes) {
      K<<<int(bm_.tiles * nct_), kMmaThreads, bytes, s>>>(row_off_, col_off_, tile_mat_, mbase_, words_, vals_, B_, C_, h.batch, h.total_rows, h.nb, nct_,
                                                         kw_);
      CUDA_CHECK_LAUNCH();
    });
  }
  T* output() override { return C_; }

 private:
  // f(kernel, its dynamic shared memory) for the layout and NT.
  template <typename F>
  void with_cfg(F&& f) const {
    with_layout(h_->layout, [&](auto L) {
      constexpr Layout LL = decltype(L)::value;
      constexpr int NTM = sizeof(T) == 8 ? 32 : 64;
      if (nt_ == 16) f(mma_kernel<T, LL, 16>, mma_smem_bytes<T, LL, 16>());
      else if (nt_ == 32) f(mma_kernel<T, LL, 32>, mma_smem_bytes<T, LL, 32>());
      else f(mma_kernel<T, LL, NTM>, mma_smem_bytes<T, LL, NTM>());
    });
  }
  const HostBatch<T>* h_ = nullptr;
  MmaBitmap<T> bm_;
  int nt_ = 16, kw_ = 1, nct_ = 1;
  int *row_off_ = nullptr, *col_off_ = nullptr, *tile_mat_ = nullptr;
  long long* mbase_ = nullptr;
  MmaWord* words_ = nullptr;
  T *vals_ = nullptr, *B_ = nullptr, *C_ = nullptr;
};

// The products batched-tile runs on the batch's A_i: each padded to whole bm-row jobs and k chunks
// (what the planner weighs against the A_i's m_i k_i and against batched-slab's 16-row strips).
template <typename T>
inline double tile_padded_products(const HostBatch<T>& h, int bm) {
  const int kc = tile_k<T>(h.max_k);
  double w = 0;
  for (int i = 0; i < h.batch; ++i) w += double(ceil_div(h.m[i], bm)) * bm * (double(ceil_div(h.k[i], kc)) * kc);
  return w;
}
// The products batched-slab runs over the A_i: 16-row strips, k rounded up to kq (16 for 16-bit values, 8 else).
template <typename T>
inline double slab_padded_products(const HostBatch<T>& h) {
  constexpr int kq = sizeof(T) == 2 ? 16 : 8;
  double w = 0;
  for (int i = 0; i < h.batch; ++i) w += double(ceil_div(h.m[i], 16)) * 16 * (double(ceil_div(h.k[i], kq)) * kq);
  return w;
}

// The planner: which of our kernels a batch should use, from its statistics (layout, density of the
// A_i, longest row, nb, precision), with the rule that decided. What `auto` runs and `--explain` prints.
struct Choice {
  std::string method, rule;
};
template <typename T>
inline Choice choose_ours(const HostBatch<T>& h, const DeviceInfo& dev) {
  double dense = 0;  // sum of m_i * k_i
  for (int i = 0; i < h.batch; ++i) dense += double(h.m[i]) * h.k[i];
  const double density = dense > 0 ? double(h.total_nnz) / dense : 0;
  const double row_len = mean_row_len(h);
  const bool tensor = dev.prop.major >= 8;
  const int slots = ell_slots(h);
  const bool short_rows = slots && slots <= 4;  // rows of at most 4 nonzeros (ELL's, rules 6 and 16)
  char d[200];
  std::snprintf(d, sizeof d, "density %.3g, mean row %.3g, longest row %s, nb %d, %s, %s batch", density, row_len,
                slots ? ("<= " + std::to_string(slots)).c_str() : "> 8", h.nb, Acc<T>::name, h.uniform ? "uniform" : "mixed");
  const std::string why = std::string(" (") + d + ")";
  // batched-mma: a row's nonzeros are one load each over 32 lanes instead of a serial walk, but every
  // 16-row strip re-reads its B slabs, so it pays on long rows and small nb (measured: docs/spmm-notes.md, "batched-mma").
  // batched-tile: dense products, B_i and C_i streamed once; pays where the A_i are dense enough and
  // small (k <= 128: past it, its one block a job walks k serially), and where enough columns or long
  // rows cover its per-block fill (measured on a development sweep: docs/spmm-notes.md "batched-tile").
  // Wider A_i (k > 128) go a panel at a time (the fill groups of places and values, k split over blocks where the
  // grid is small): column-major with two blocks an SM or more (fewer leave SMs idle while each walks
  // k), row-major where A_i are dense (>= 3/8) and nb >= 32 (1.07-1.7x csr-flat on the development
  // sweeps; below nb 32 batched-mma, at 1/4 it won and lost by 15-40 %: docs/spmm-notes.md).
  // f64 column-major with nb >= 128: batched-col's 8-byte lanes lost to tile's DMMA even at 1/16.
  const int tile_bm = tensor ? tile_rows_for(h, dev) : 0;
  const bool tile = tile_bm && h.max_k <= kTilePanel;
  // Past a panel: two blocks an SM or more, counting the k splits (the wave estimated from shared
  // memory alone; setup takes the occupancy API's).
  int64_t panel_blocks = 0;
  if (tile_bm && !tile) {
    const int64_t b = tile_blocks(h, tile_bm);
    const size_t bytes = tile_geom(h, tile_bm).bytes + 1024;
    const int64_t per_sm = std::max<int64_t>(1, std::min<int64_t>(8, int64_t(dev.smem_sm / bytes)));
    panel_blocks = b * tile_split(h, b, per_sm * dev.sms);
  }
  const bool panels = panel_blocks >= 2 * int64_t(dev.sms);
  const bool half = sizeof(T) == 2;
  // batched-split: long rows and nb <= 8, where the other kernels walk a row on one lane or a few
  // (development sweeps, docs/spmm-notes.md "batched-split": 1.1-3.6x our next best, e.g. batch 20 of
  // d512, 32 a row, nb 4: 3.5 vs 12.6 us; column-major batch 16 of d640, 64 a row, nb 4: 4.9 vs 19.2).
  // Row-major from 16 a row (at 12-14 csr-flat's vector lanes tied or won by up to 19 %), first where
  // its S lanes a row fit the resident threads; larger grids keep batched-tile's rules (batch 1000 of
  // d64, 32 a row, nb 8: tile 8.3, split 13.5) and take split in place of csr-flat / batched-mma.
  // Column-major from 12 a row (batched-col walks a row on one lane), unless batched-tile's own rule
  // holds (one-panel A_i, k <= 128, and 16-bit or density >= 1/4) with rows x lanes past a quarter of the resident
  // threads (batch 300 of d64, 24 a row, nb 8: tile 4.3, split 6.0). Not f64: split lost at f64 nb 8
  // (row-major 8.1 vs csr-flat 6.5; column-major 5.7 vs tile 5.1).
  // Column-major, not where A_i are wider than a panel and dense (>= 3/8) with nb 4-8 and batched-tile's
  // panels make two blocks an SM or more (k splits counted): rule 4's tile took 0.27-0.59x split's time
  // there, split walking the long rows' B columns (H100, graph mode; docs/spmm-notes.md "Rule 1:
  // column-major wide dense A_i"; batch 10 of d1024, 512 a row, nb 8: 21.1 against 65.6 us; batch 8 of
  // d1200, 480 a row, nb 6: 18.5 against 36.6); on smaller grids split stayed ahead (batch 10 of d256, nb 8:
  // 4.3 against 10.9; batch 6 of d384: 5.0 against 12.0). Row-major is left to split: tile won only where
  // its jobs and k splits fill the SMs evenly (batch 10 of d1024: 21.9 against 28.3) and lost 1.09-1.67x
  // on 5 of 5 others at density 0.4-0.5 (batch 12 of d800, 400 a row: 26.8 against 18.7).
  // batched-slab at nb 5-8 (before split's rule): 16-bit row-major batches of density >= 1/4 whose widest A_i has k of
  // 96-256 (at k 256 in row slices: its A_i and B tile pass two blocks an SM). There slab's tensor-core products over
  // the dense A_i cost less than split's walk of each row's B values or tile's 64-row jobs. Measured (H200, graph mode;
  // docs/spmm-notes.md "batched-slab at nB 5-8"), on 18 row-major cells of nb 2-8 and rows of 16-96 (split8_cells.json):
  // slab the best of ours in all 5 of this class, 0.69-0.80x the time of the pick before (f16 batch 300 of d112, 28 a
  // row, nb 8: 4.8 against split's 7.0 us; bf16 batch 500 of d128, nb 6: 7.7 against tile's 10.7); split stayed ahead at
  // nb 4 (d48-d512), at k <= 64 (batch 1000 of d64, 16 a row, nb 8: 4.6 against slab's 5.8) and k >= 384, and f32 was
  // split's, csr-flat's or tile's (slab within 3 % of the best in one of 5). On a check set written before the rule ran
  // (slab8_check.json) slab was the best of ours in 9 of its 10 cells (0.50-0.86x the old pick's time); the tenth, batch
  // 20 of d128 (20 blocks), went to split (2.6 against 4.2 us), hence a grid bound, fixed after that run. At half the
  // SMs (rule 7's) it still lost at 66 and 70 blocks (bf16 batch 66 of d160, 40 a row: 4.9 against split's 3.4;
  // slab8_grid_check.json, written before that bound ran) and won at 100 (d112 nB 6: 4.6 against tile's 6.0), so slab's
  // blocks at least the SMs (a full wave). On slab8_wave_check.json (written before it ran) that still took slab at 140
  // blocks (4.5 against split's 3.8) and left 90 to split (7.3 against slab's 6.4): split's threads past the resident
  // ones separate the two better (docs/spmm-notes.md): split led wherever its threads (rows x lanes a row) stayed within
  // 0.62 of the resident ones at nb 8 (7 of 7) and lost from 0.91 (b60 d256, 128 a row: 9.0 against slab's 5.3; b300
  // d112: 7.1 against 4.8). A first clause also took nb 5-7 from half the SMs (split loads B's values one at a time
  // there, its rows off 16 bytes); on slab8_thr_check.json (18 cells, written before it ran) split still led in 3 of the 5
  // such cells at 70-120 blocks (bf16 batch 85 of d144, 40 a row, nb 6: 4.6 against slab's 5.5), so one bound for nb 5-8:
  // split's threads past 3/4 of the resident ones, slab's blocks at least half the SMs (rule 7's). On that set this picks
  // the faster of the two in 15 of 18, the other three within 5 % (b180 d104 nb 8 and b90 d128 nb 5 below 3/4, b95 d160
  // at 0.90), and against the wave bound it moves 8: 6 faster (0.80-0.89x), 2 slower (1.03x, 1.04x).
  const double split_threads = double(h.total_rows) * split_lanes(row_len), resident = double(dev.sms) * dev.max_threads_sm;
  if (tensor && half && h.layout == Layout::Row && h.nb > 4 && h.nb <= 8 && density >= 0.25 && h.max_k >= 96 && h.max_k <= 256) {
    const SlabPlan sp = slab_plan(h, dev);
    if (sp.rows > 0 && 2 * slab_blocks(h, sp) >= int64_t(dev.sms) && split_threads > 0.75 * resident)
      return {"batched-slab", "row-major, 16-bit, nb 5-8, density >= 1/4, the widest A_i of k 96-256, its blocks at least half the SMs and batched-split's "
                              "threads (rows x lanes) past 3/4 of the resident ones: all of A_i (or slices of its rows) times the B_i columns at once, tensor cores" + why};
  }
  const bool wide_tile = h.layout == Layout::Col && panels && density >= 0.375 && h.nb >= 4;
  const bool split_any = h.nb <= 8 && sizeof(T) != 8 && !wide_tile;
  const bool split_row = split_any && h.layout == Layout::Row && row_len >= 16;
  const bool split_col = split_any && h.layout == Layout::Col && row_len >= 12 &&
                         !(tile && (half || density >= 0.25) && split_threads > resident / 4);
  if (split_col || (split_row && split_threads <= resident))
    return {"batched-split", std::string(split_col ? "column-major, nb <= 8, rows of >= 12 on average, not f64, unless batched-tile's one-panel rule holds with rows x lanes past a quarter of the resident threads"
                                                   : "row-major, nb <= 8, rows of >= 16 on average, not f64, rows x lanes within the resident threads") +
                                 ": a row's nonzeros split over lanes, summed by shuffles" + why};
  // batched-slab in slices (rule 2): A_i wider than one of batched-tile's panels (k > 128), density >= 1/4,
  // nb > 8 (rule 1 first), slices of >= 32 rows (each slice stages the B tile again), and nb <= 16, or
  // 16-bit, at two blocks an SM, or else its blocks (slices x column tiles) within one wave
  // (unseen-sweep's batch 8 of d768, nb 16, one block an SM and 1.45 waves: 26.3 against batched-mma's
  // 18.0; fixed after the measurement, rule 12 takes it). Measured (H100, graph mode;
  // docs/spmm-notes.md "batched-slab: slices of rows", 71 cells of d192-d1024): nb 16, both layouts,
  // 0.55-0.94x our best other kernel's time (batch 100 of d256, 128 a row: 17.1 against batched-mma's 22.8);
  // past nb 16 it won where its grid was within a wave (batch 10 of d256, nb 64: 9.4 against 10.6) and
  // lost by up to 1.6x past it (batch 20 of d384, nb 64: 25.9 against csr-flat's 16.1); 16-bit past nb 64
  // (H200, docs/spmm-notes.md "Rule 2 without its 16-bit bound": 12 row-major cells, k 144-400, batch 40-250: slab
  // our best in all 12, where a bound at nb 64 left csr-flat at 2.1-5.0x its time in 9; a check set of 20 written
  // before the run, batch 10-400, both layouts: `auto` 1.51x as fast (geometric mean), within 10 % of our best in 18,
  // 5 with the bound); slices of 16
  // rows (d1024: B tiles of 1024 rows) took 2-9x.
  // 16-bit row-major batches take rule 2 (and 2t) from density 1/12 with nb >= 32: below 1/4 csr-flat (rule 17) took
  // 1.22-2.06x our best kernel's time in 11 of the 12 such cells at density 1/8-1/5 of a class set (H200,
  // docs/spmm-notes.md "16-bit past a panel below density 1/4", k 160-1024, nb 32-256), where the rules below pick the
  // best or within 3 % of it in 11; at density 1/12-1/8 (a second class set, docs/spmm-notes.md "rule 2t from k 200")
  // 1.06-1.63x in 9 of the 12 such cells at nb >= 32, csr-flat our best in the other 3 by 7-10 %; at 1/16 csr-flat led
  // or tied in 2 of 3. Column-major batches there keep rule 4's batched-tile (the better of the two in both such cells).
  const bool sparse16 = half && h.layout == Layout::Row && density >= 1.0 / 12 && density < 0.25 && h.nb >= 32;
  const std::string dens = sparse16 ? "16-bit row-major, density >= 1/12, nb >= 32" : "density >= 1/4";
  if (tensor && h.max_k > kTilePanel && (density >= 0.25 || sparse16) && h.nb > 8) {
    // Rule 2t: 16-bit A_i of k > 176 (density >= 1/4; else k > 200) where batched-tile takes two strips a warp
    // (tile_strips_for: aligned, m >= 64, nb > 32) and its 64-row jobs x 64-column tiles make two blocks an SM, or, past
    // k 256, nb >= 96 below that grid. First
    // written for k > 256 above the grid from 36 H200 cells (docs/spmm-notes.md "two strips a warp"; its check set, 16
    // cells: 1.17x slab's speed in the 10 it moved). Widened on class data of the current kernels (H200, docs/spmm-notes.md
    // "rule 2t from k 200"): at k 160-256 above the grid tile led slab in 7 of 8 cells at k >= 208 (1.07-1.44x) and
    // slab in all 4 at k 160-200 (1.10-1.39x); below the grid past k 256 tile led in the 4 of 8 at nb >= 96
    // (1.06-1.66x; batch 8 of d1024, nb 96: 21.9 against slab's 36.3, where slab's 16-row slices left rule 2 to csr-flat
    // at 60.6 us) and slab in the 4 at nb 48-80 (1.02-1.36x). A row-major bound at nb 64 (slab below) was tried on a
    // check set and dropped: slab led at nb 40-48 only at k 208-240 (1.04-1.09x) and tile past it (0.71-0.82x slab's time).
    // From k > 176 at density >= 1/4, since batched-tile holds A_i of k 129-192 whole (tile_wide): on class data of that
    // kernel (H200, docs/spmm-notes.md "rule 2t from k 176") tile led slab in 5 of the 7 cells at k 184-192 (1.06-1.28x;
    // slab by 3 and 6 %) and slab in both at k 176 (1.18, 1.39x); earlier check sets had tile ahead at k 200 in both
    // cells (1.36x, 1.12x). Below density 1/4 (row-major from 1/12) the bound stays at 200: no class data there. Its check
    // set (13 cells it moves, k 184-200, written before it ran): `auto` 1.05x as fast (0.91-1.32x), within 10 % of our
    // best in all 13 (9 before).
    const int k2t = density >= 0.25 ? 176 : 200;
    if (half && h.max_k > k2t) {
      int bm = tile_bm;
      if (tile_strips_for(h, dev, misaligned16(h), bm) == 2 && (tile_two_blocks_sm(h, dev) || h.nb >= 96))
        return {"batched-tile", "16-bit, k > " + std::to_string(k2t) + ", " + dens + ", and batched-tile's two strips a warp (aligned, m >= 64, nb > 32) with its 64-row jobs x 64-column tiles two blocks an SM or more (past k 256: or nb >= 96): dense A_i panels x B_i streamed once, tensor cores" + why};
    }
    const SlabPlan sp = slab_plan(h, dev);
    if (sp.rows >= 32) {
      const size_t bytes = slab_geom(h, sp.bn, sp.rows, sp.ms).bytes + 1024;
      const int64_t per_sm = std::max<int64_t>(1, std::min<int64_t>(dev.max_threads_sm / (32 * sp.warps), int64_t(dev.smem_sm / bytes)));
      const int64_t blocks = slab_blocks(h, sp), wave = per_sm * dev.sms;
      if ((per_sm >= 2 && (h.nb <= 16 || half)) || blocks <= wave) {
        char w[160];
        if (!sp.sliced) std::snprintf(w, sizeof w, "whole A_i a block (%lld blocks, a wave %lld)", (long long)blocks, (long long)wave);
        else std::snprintf(w, sizeof w, "%d-row slices (%lld blocks, a wave %lld)", sp.rows, (long long)blocks, (long long)wave);
        return {"batched-slab", "k > 128, " + dens + ", nb > 8, slices of >= 32 rows, and " +
                                    (blocks <= wave ? "its blocks within one wave" : h.nb <= 16 ? "nb <= 16 at two blocks an SM" : "16-bit at two blocks an SM") + ", " + w +
                                    ": slices of A_i dense times a B_i column tile, tensor cores" + why};
      }
    }
  }
  const bool f64_wide = sizeof(T) == 8 && h.nb >= 128;
  // 16-bit column-major rows of at most 4 nonzeros go to batched-col (rule 6) where batched-tile pads the A_i
  // to >= 1.1x their m_i k_i (m or k not a multiple of its jobs / chunks). Measured (H100, docs/spmm-notes.md
  // "16-bit column-major short rows"): 0.41-0.84x tile's time in the 5 such cells of a check set (d100 4 a row
  // nb 96: 21.9 against 52.9 us) and at unseen-sweep's d80 (nb 32 / 192: 8.5 / 37.6 against 13.3 / 43.2);
  // where tile pads nothing it won or tied from nb 32 (d64 3 a row nb 32: 5.6 against col's 7.0; nb 16 is
  // col's, 4.2 against 4.7, one cell, left to tile). Not rows of 4 at nb >= 64 where batched-tile streams (tile_col_streams:
  // m_i, k_i multiples of 8, <= 128), whose padding is k to 32 only: on the H200 its streamed path took 0.76-0.85x
  // batched-col's time in all 5 such cells of two sets (d32-d88, nb 64-256; bf16 d88 nb 128: 19.3 against 22.8 us), while
  // at rows of 1-3 col still led in 4 of 6 (d24 3 a row nb 16: 4.0 against 7.3). On a check set written before the rule
  // ran (tcol_rule6_check: 8 cells it moves) `auto` took 0.82x its old time (0.58-1.19x) and was within 10 % of our best
  // in 7 (2 before); the miss: f16 d16 at nb 64 (tile 10.9, col 9.0 us) (docs/spmm-notes.md "Session of 2026-11-29 #6").
  const bool col16 = h.layout == Layout::Col && tile && half && short_rows && tile_padded_products(h, tile_bm) >= 1.1 * dense &&
                     !(slots == 4 && h.nb >= 64 && tile_col_streams(h));
  // batched-slab (rule 2's second clause): 16-bit column-major batches off 16-byte alignment (misaligned16: some m_i
  // or k_i not a multiple of 8) with nb >= 16, where all of the largest A_i and a column tile fit a block: its B and
  // C tiles move as flat runs (slab_kernel's MIS 1), where batched-tile copies 32-row chunks of columns that start
  // off 16 bytes and stores C in 2- and 4-byte pieces. Measured (H100, graph mode; docs/spmm-notes.md "flat runs"), on
  // the 27 misaligned cells of the class set (colslab16b_cells.json; dims 44-126, nb 32-256) that ran with flat C
  // runs: 0.34-0.95x tile's time in 26 (f16 batch 1280 of d73, 7 a row, nb 128: 33.2 against 98.8 us; bf16 d94, 24 a
  // row, nb 128: 41.6 against 70.3) and 1.07x in one (bf16 d108, 36 a row, nb 256). Below nb 16 (not measured) a
  // block's 32-column tile is mostly padding; rule 6's short rows stay with batched-col (not measured against it).
  if (h.layout == Layout::Col && tile && half && !col16 && h.nb >= 16 && misaligned16(h) && slab_fits(h, dev))
    return {"batched-slab", "column-major, 16-bit, some m_i or k_i not a multiple of 8, k <= 128, nb >= 16: all of A_i times a B_i column tile, the B and C tiles moved as flat runs, tensor cores" + why};
  // Rule 3's exceptions to batched-col, where its streamed path (lanes on rows, a row's product a lane) beats
  // batched-tile's dense products (H200, graph mode; docs/spmm-notes.md "Session of 2026-11-29 #9"): 16-bit with nb <= 16,
  // rows of at most 8 and mean row x nb <= 96 (a lane's products a row; on colshort_check and tcol_nb16_cells col took
  // 0.27-0.75x tile's time in all 15 such cells, while at 112 and 128 tile tied or led: d56 7 a row 9.5 against 10.2,
  // d128 8 a row 5.9 against 4.2); f32 with nb >= 32, density below 1/4 and rows of at most 8 (colf32_cells: col our best
  // or within 3 % in all 5 such cells, tile 0.98-1.39x its time, d64 8 a row nb 256: 44.7 against 59.3; at rows of 9-24
  // tile or slab led col by 1.38-4.2x).
  const bool col_short = h.layout == Layout::Col && tile && slots &&
                         (half ? h.nb <= 16 && row_len * h.nb <= 96 : sizeof(T) == 4 && h.nb >= 32 && density < 0.25);
  const bool tile_col = h.layout == Layout::Col && tile && !col16 && !col_short && (h.nb >= 32 ? half || f64_wide || density >= 0.125 : half || density >= 0.25);
  // batched-slab (rule 2's third clause) where rule 3 would take batched-tile for f32 with k of 65-128 and nb >= 32 and tile
  // pads the A_i to >= 1.1x slab's products (tile: jobs of 32 or 64 rows, k in 32-row chunks; slab: 16-row strips, k to
  // 8), as rule 7 does row-major. Measured (H200, graph mode; docs/spmm-notes.md "Session of 2026-11-29 #9"), on the 49
  // f32 column-major cells of colf32_cells, colf32_check and colf32_pad_cells: slab took 0.78-0.87x tile's time in all 10
  // such cells (d72-d112, nb 40-512; d112, 14 a row, nb 40: 18.2 against 23.4), while at k <= 64 tile led or tied where
  // it pads too (d40-d56: slab 1.03-1.07x; d24, 6 a row, nb 48: 1.35x). And, padded or not, k > 112 with nb >= 64: on
  // colf32_k128_cells (14 cells written before the run) slab took 0.81-0.99x tile's time in all 11 of d120-d128 at nb
  // 64-1024 (d128, 16 a row, nb 192: 128.6 against 159.1), where tile led at nb 48 (17.4 against 18.6) and by 5 % at 96.
  if (tile_col && sizeof(T) == 4 && h.nb >= 32 && h.max_k > 64 && slab_fits(h, dev)) {
    const double tile_work = tile_padded_products(h, tile_bm), slab_work = slab_padded_products(h);
    const bool pads = tile_work >= 1.1 * slab_work;
    if (pads || (h.max_k > 112 && h.nb >= 64)) {
      char w[120];
      if (pads) std::snprintf(w, sizeof w, "batched-tile pads the A_i to %.2fx batched-slab's products", tile_work / slab_work);
      else std::snprintf(w, sizeof w, "k > 112 with nb >= 64");
      return {"batched-slab", std::string("column-major f32 where rule 3 holds, k > 64, nb >= 32, ") + w + ": all of A_i times a B_i column tile at once, tensor cores" + why};
    }
  }
  if (tile_col)
    return {"batched-tile", std::string("column-major, k <= 128, ") +
                                (half ? "16-bit" : f64_wide ? "f64, nb >= 128" : h.nb >= 32 ? "nb >= 32, density >= 1/8" : "density >= 1/4") +
                                ": dense A_i tiles x B_i streamed once, tensor cores" + why};
  // Below two blocks an SM, nb >= 48 still pays (docs/spmm-notes.md "Rule 3": batches of 6-40 of d160-d512,
  // density 1/6-1/2, H100: tile 0.29-0.94x batched-mma's time at nb 48-128, e.g. d256 nb 128 11.5 against
  // 30.6 us; at nb 24-32 batched-mma or batched-split won: d384 nb 32 mma 12.8 against tile 19.7).
  const bool panels_cols = panels || (tile_bm && !tile && h.nb >= 48);
  if (h.layout == Layout::Col && panels_cols && (density >= 0.125 || row_len >= 64))
    return {"batched-tile", "column-major, k > 128, density >= 1/8 or rows of >= 64, two blocks an SM or more (k splits counted) or nb >= 48: dense A_i panels x B_i streamed once, tensor cores" + why};
  if (h.layout == Layout::Col && tensor && row_len >= 32)
    return {"batched-mma", "column-major, rows of >= 32 nonzeros on average: bitmap slabs of A x B_i on tensor cores" + why};
  if (h.layout == Layout::Col) return {"batched-col", "column-major, sparse rows: lanes on rows, A's row in registers or L1" + why};
  // batched-slab (rule 7): where rule 8's batched-tile applies and tile pads the A_i to >= 1.1x the
  // products slab runs (tile: jobs of 32 or 64 rows, k in 32-row chunks; slab: 16-row strips, k to 16 or
  // 8; so m or k not a multiple of 32), or 16-bit with nb >= 64. Measured (H100, graph mode; docs/spmm-notes.md
  // "batched-slab"): unseen-sweep's such cells 0.61-0.90x tile's time (d80, 40 a row, nb 32: 11.1 against
  // 18.0 us; batch 8000 of d40; f64 d48; 16-bit d80), and 16-bit nb 256 d64 0.94x; where the padding is
  // the same (d32, d64) f32 / f64 tied within 0.91-1.05x and 16-bit nb 16 lost 1.11-1.13x. Not column-major:
  // there slab won and lost by up to 1.66x (col-f16 d64, 3 a row, nb 256: 45.3 against 27.3). And f32 where
  // slab plans two strips a warp (slab_plan's ms) and its blocks (matrices x column tiles) are at least half
  // the SMs: on 20 such cells written before this clause (d64-d128, batch 30-2000, nb 128-512; H100, graph
  // mode; docs/spmm-notes.md "rule 7: two strips, half the SMs"), slab took 0.78-0.95x tile's time in 11
  // (batch 60 of d128, 64 a row, nb 256: 14.3 against 18.4 us), 0.98-1.02x in 5 and 1.06-1.12x in 4 (batch
  // 40 of d96, 48 a row, nb 256: 10.2 against 9.1, 80 blocks); below half the SMs it lost in 3 of 3, by up
  // to 1.25x (batch 45 of d96, nb 128: 10.0 against 8.0).
  const bool tile_row = tile && h.max_m > 16 && density >= (half ? 0.25 : 0.375) && (h.nb >= (half ? 16 : 32) || row_len >= 32);
  if (tile_row && slab_fits(h, dev)) {
    const double tile_work = tile_padded_products(h, tile_bm), slab_work = slab_padded_products(h);
    bool two = false;
    if (sizeof(T) == 4) {
      const SlabPlan sp = slab_plan(h, dev);
      two = sp.ms == 2 && 2 * slab_blocks(h, sp) >= dev.sms;
    }
    if (tile_work >= 1.1 * slab_work || (half && h.nb >= 64) || two) {
      char w[120];
      std::snprintf(w, sizeof w, "batched-tile pads the A_i to %.2fx batched-slab's products", slab_work > 0 ? tile_work / slab_work : 1.0);
      return {"batched-slab", std::string("row-major where rule 8 holds, ") +
                                  (tile_work >= 1.1 * slab_work ? w : half ? "16-bit, nb >= 64" : "f32 with two 16-row strips a warp and blocks for half the SMs") +
                                  ": all of A_i times a B_i column tile at once, tensor cores" + why};
    }
  }
  if (tile_row)
    return {"batched-tile", std::string("row-major, k <= 128, m > 16, ") + (half ? "16-bit, density >= 1/4, nb >= 16" : "density >= 3/8, nb >= 32") +
                                " or rows of >= 32: dense A_i tiles x B_i streamed once, tensor cores" + why};
  // batched-slab (rule 9) below rule 8's density or nb for f32 / f64: density >= 1/4, rows of >= 16 on
  // average (f64: 8), nb >= 32 (f64: 16), two blocks an SM fit (A_i dense and the column tile), and at
  // least two blocks (matrix, column tile) an SM. Measured (H100, graph mode; docs/spmm-notes.md "planner:
  // rule 8"): spmm-wide batch 1000 of d64, 16 a row, nb 64 / 256: slab 18.9 / 62.4 against csr-flat's
  // 22.3 / 72.0 us; f64 d32, 16 a row, nb 16: 5.9 against 8.0; f64 with rows of 10-12 (d32 nb 24, d40
  // nb 96, d48 nb 16): 0.73-0.84x csr-flat's time. Left out, as measured: fewer blocks (batch 150 of d56,
  // nb 64: csr-flat 4.3 against 5.3), f32 rows of 8-12 (d28 8 a row nb 64: 8.3 against 11.7; d40 12 a
  // row nb 32: 11.4 against 13.1), f32 below nb 32, one block an SM (f64 d120 nb 128: 82 against 104).
  // f64 also from density 1/8 where slab's column tile is 64 or 128 columns (or nb <= 32): on 7 such cells
  // (density 0.125-0.21, rows of 8-12; docs/spmm-notes.md "Rule 9: f64 from density 1/8") slab took 0.76-0.91x
  // csr-flat's time in 6 (d56, 10 a row, nb 512: 162.7 against 213.2 us) and 1.05x in one (batch 2000 of d40,
  // 8 a row, nb 32), 0.83-1.00x tile's; where two blocks an SM cut its tile to 32 columns it lost to tile
  // 1.25x (d96, 16 a row, nb 128: 123.6 against 98.7).
  // 16-bit below rule 8's density, rows longer than 4 (shorter ones are ELL's, rule 16): nb >= 16 not a multiple
  // of 8 (csr-flat's 16-bit rows then go one value a lane), nb >= 64 with rows of >= 6 on average, nb >= 32 with
  // >= 8, or nb >= 16 with >= 12. Measured (H100, graph mode; docs/spmm-notes.md "Rule 9 for 16-bit"): on 45 cells
  // of d40-d128, 5-14 a row, nb 16-256 (row16_low_cells.json and seg_cells.json's row-major ones) slab took
  // 0.31-0.91x csr-flat's time in most where rows reach 6 (batch 1200 of d96, 12 a row, nb 70: 38.3 against 123.3
  // us; batch 1800 of d72, 14 a row, nb 64: 18.6 against 39.1), and csr-flat won at 5 a row with nb a multiple of
  // 8 (d128 nb 64: 11.5 against 14.1) and at nb 16 below 12 a row (d80, 7 a row: 20.9 against 23.0). A check set
  // (row16_check.json) then showed nb 20 and 30 (not multiples of 8) at 0.39-0.64x csr-flat's time, and rows of
  // 5-9 at nb 32 in a mixed d16-64 batch at 1.27x (so 8 a row from nb 32 to 63).
  const bool half_rows = !short_rows && ((h.nb >= 16 && h.nb % 8 != 0) || (h.nb >= 64 && row_len >= 6) || (h.nb >= 32 && row_len >= 8) ||
                                         (h.nb >= 16 && row_len >= 12));
  const bool f64 = sizeof(T) == 8;
  // A_i of <= 16 rows too where the 16-bit batch takes batched-slab's streamed path (slab_streams: n8 tiles of rows, no
  // 16-row strips) with two or more 32-column groups a matrix (nb > 32: a warp's first group has nothing to overlap). On
  // a check set written before the clause ran (small_m_check: dims 4-16, rows of 6-16, nb 16-1024; H200, graph mode,
  // docs/spmm-notes.md "Session of 2026-11-29 #8") slab took 0.24-0.94x the time of csr-flat and ELL in all 11 cells at
  // nb 36-1024 (bf16 batch 3000 of d16, 16 a row, nb 256: 19.0 against 78.4 us; f16 batch 8000 of d16, 8 a row, nb 64:
  // 12.9 against 19.2), and lost at nb 16-32 (f16 batch 10000 of d8, 8 a row, nb 32: 10.1 against csr-flat's 6.7).
  const bool small_m = half && h.max_m <= 16 && h.nb > 32 && slab_streams(h);
  if (tile && (h.max_m > 16 || small_m) && (half ? half_rows : density >= (f64 ? 0.125 : 0.25) && row_len >= (f64 ? 8 : 16) && h.nb >= (f64 ? 16 : 32))) {
    const int bn = slab_cols_for(h, dev);
    const bool wide = half || density >= 0.25 || bn >= 64 || h.nb <= 32;
    if (wide && slab_geom(h, bn).bytes <= dev.budget_for(2) && int64_t(h.batch) * ceil_div(h.nb, bn) >= 2 * int64_t(dev.sms))
      return {"batched-slab", std::string("row-major, k <= 128, ") + (small_m ? "m <= 16 on the streamed path (k <= 32, nb > 32 a multiple of 4), " : "m > 16, ") +
                                  (half ? "16-bit, a row longer than 4, and nb >= 16 not a multiple of 8, or rows of >= 6 on average with nb >= 64, >= 8 with nb >= 32, >= 12 with nb >= 16"
                                        : std::string("f32 / f64, density >= ") + (f64 ? "1/8 (below 1/4: a column tile of >= 64, or nb <= 32)" : "1/4") +
                                              ", rows of >= " + (f64 ? "8" : "16") + " on average, nb >= " + (f64 ? "16" : "32")) +
                                  ", two blocks an SM fit and the matrices x column tiles are at least twice the SMs: all of A_i times a B_i column tile at once, tensor cores" + why};
  }
  if (tile_bm && !tile && density >= 0.375 && h.nb >= 32)
    return {"batched-tile", "row-major, k > 128, density >= 3/8, nb >= 32: dense A_i panels x B_i streamed once, tensor cores" + why};
  if (split_row) return {"batched-split", "row-major, nb <= 8, rows of >= 16 on average, not f64: a row's nonzeros split over lanes, summed by shuffles" + why};
  if (tensor && row_len >= 32 && density >= 0.375 && h.nb <= 16)
    return {"batched-mma", "row-major, rows of >= 32 nonzeros on average, density >= 3/8, nb <= 16: bitmap slabs of A x B_i on tensor cores" + why};
  // Where the B_i of the rows in flight (32 lanes a row) pass half of L2, a B_i is evicted before its
  // rows have read it. Short rows (<= 4 on average, A_i of >= 24 columns on average, as measured):
  // batched-staged streams each column block of B_i once through shared memory (development sweep, f64
  // nb 512-1024: 0.76-0.96x the time of batched-tile, 0.57-0.98x csr-flat and ELL; f32 nb 1024: 0.86x
  // csr-flat). Longer rows: f64 with k <= 64 streams B_i through batched-tile (it beat staged by 4-25 %
  // there; at k 96-128 it took 1.3-2x csr-flat's time), f32 widens csr-flat's rows (faster than ELL).
  const bool l2 = b_overflows_l2(b_row_bytes(h), 32, dev);
  const double mean_k = h.batch ? double(h.total_cols) / h.batch : 0;
  if (l2 && row_len <= 4 && mean_k >= 24 && Staged<T>::fits(h, dev))
    return {"batched-staged", "row-major, rows of <= 4 nonzeros on average, A_i of >= 24 columns on average, the B_i of the rows in flight pass half of L2: column blocks of B_i streamed once through shared memory" + why};
  if (l2 && tile && sizeof(T) == 8 && h.max_k <= 64)
    return {"batched-tile", "row-major, f64, k <= 64, the B_i of the rows in flight pass half of L2: B_i streamed once" + why};
  // f64 A_i of >= 80 columns on average (k <= 128) with rows of >= 12 and nb >= 128, B past L2:
  // batched-tile (m16n8k8 DMMA, B_i streamed once a job) beats batched-staged (B_i once a column block,
  // each nonzero a shared-memory read of nb values: bound by shared memory) and csr-flat (B_i re-read
  // from L2 a nonzero). Measured (H100, graph mode; docs/spmm-notes.md "f64 on m16n8k8"): d80-d128, 12-32
  // a row, nb 128-512 and mixed d72-128: 0.40-0.98x csr-flat's time and 0.59-1.00x staged's (d112 24 a
  // row nb 512: 477 against 649 and 1185 us; d128 16 a row nb 256: 302 against 346 and 397); nb 64 lost
  // (1.09-1.39x csr-flat) at density 0.09-0.125, rows of 6-8 lost (staged or csr-flat faster).
  // Also from nb 48 where the density reaches 3/16 (B in L2 or not): on 13 cells of d80-d128, nb 48-112
  // (docs/spmm-notes.md "Rule 15 from nb 48"), tile was fastest of ours or within 2 % in all 8 of density
  // >= 0.19 (d112 24 a row nb 80: 62.3 against csr-flat's 88.0 and slab's 66.1 us; d120 36 a row nb 96:
  // 53.3 against 84.2), and lost to slab below it (d128 16 a row nb 64: 78.8 against 72.9; csr-flat 77.7).
  const bool f64_mid = h.nb >= 48 && density >= 0.1875;
  if (tile && sizeof(T) == 8 && mean_k >= 80 && row_len >= 12 && ((h.nb >= 128 && double(h.B.n) * sizeof(T) > double(dev.prop.l2CacheSize)) || f64_mid))
    return {"batched-tile", std::string("row-major, f64, k <= 128, A_i of >= 80 columns on average, rows of >= 12 on average, ") +
                                (f64_mid ? "nb >= 48, density >= 3/16" : "nb >= 128, B larger than L2") + ": dense A_i tiles x B_i streamed once, DMMA" + why};
  if (short_rows && !(sizeof(T) == 4 && l2))
    return {"batched-ell", "row-major, rows of at most 4 nonzeros: ELL slots, block-diagonal indexing" + why};
  return {"batched-csr-flat", "row-major, rows longer than 4 (or B_i in flight past half of L2): CSR, block-diagonal indexing" + why};
}

// The rule of choose_ours, first match wins (what --explain prints; keep in step with choose_ours).
inline std::vector<std::vector<std::string>> planner_rule() {
  return {{"0", "row-major, 16-bit, nb 5-8, density >= 1/4, the widest A_i of k 96-256, batched-slab's blocks at least half the SMs, and batched-split's threads (rows x lanes a row, as rule 1 counts them) past 3/4 of the resident threads, tensor cores (sm_80+)", "batched-slab"},
          {"1", "nb <= 8, not f64, and either row-major with >= 16 nonzeros a row on average and rows x lanes a row (mean row / 4, a power of two in 4..16) within the device's resident threads, or column-major with >= 12 a row on average unless rule 3's batched-tile applies (k <= 128, 16-bit or density >= 1/4) with rows x lanes past a quarter of the resident threads; not column-major where k > 128, density >= 3/8, nb >= 4 and batched-tile's panels make two blocks an SM or more (row jobs x column tiles x k splits): rule 4", "batched-split"},
          {"2t", "16-bit, k > 176 (largest A_i) at density >= 1/4, k > 200 row-major at 1/12-1/4 with nb >= 32, where batched-tile takes two strips a warp (B and C 16-byte aligned, m >= 64, nb > 32) and its 64-row jobs x 64-column tiles make >= two blocks an SM (k > 256: or nb >= 96), tensor cores (sm_80+)", "batched-tile"},
          {"2", "k > 128 (largest A_i), density >= 1/4 (16-bit row-major: 1/12 with nb >= 32), nb > 8, batched-slab's plan takes slices of >= 32 rows (the most up to 64 that leave two blocks an SM, halved while its blocks are fewer than half the SMs), and either nb <= 16 (16-bit: any nb) with two blocks an SM, or its blocks (slices x column tiles) within one wave, tensor cores (sm_80+); or column-major, 16-bit, some m_i or k_i not a multiple of 8, k <= 128 (largest A_i), nb >= 16, not rule 6's short rows, where the largest A_i dense and a column tile of B_i fit a block; or column-major f32 where rule 3 holds, k of 65-128 (largest A_i), nb >= 32 and either batched-tile pads the A_i (jobs of 32 or 64 rows, k in 32-row chunks) to >= 1.1x batched-slab's products (16-row strips, k to 8) or k > 112 with nb >= 64", "batched-slab"},
          {"3", "column-major, k <= 128 (largest A_i), tensor cores (sm_80+), and 16-bit, or f64 with nb >= 128, or density of the A_i (nonzeros / sum of m_i k_i) >= 1/8 with nb >= 32, >= 1/4 below; not 16-bit rows of at most 4 nonzeros where batched-tile pads the A_i (jobs of 32 or 64 rows, k in 32- or 64-row chunks) to >= 1.1x their m_i k_i, nor rows of at most 8 nonzeros where 16-bit with nb <= 16 and mean row x nb <= 96, or f32 with nb >= 32 and density below 1/4 (those: rule 6)", "batched-tile"},
          {"4", "column-major, k > 128, density >= 1/8 or >= 64 nonzeros a row on average, at least two blocks (row jobs x column tiles x k splits) an SM or nb >= 48, tensor cores (sm_80+)", "batched-tile"},
          {"5", "column-major, >= 32 nonzeros a row on average (nonzeros / rows), tensor cores (sm_80+)", "batched-mma"},
          {"6", "column-major B and C", "batched-col"},
          {"7", "row-major where rule 8 holds, the largest A_i dense and a column tile of B_i (32, 64 or 128 columns, fewer while two blocks an SM do not fit) fit a block's shared memory, and either batched-tile pads the A_i (jobs of 32 or 64 rows, k in 32-row chunks) to >= 1.1x the products batched-slab runs (16-row strips, k rounded to 16 or 8), or 16-bit with nb >= 64, or f32 where batched-slab plans two 16-row strips a warp (k >= 64, all of A_i a block, at least as many 32 x 32 warp tiles as warps) and its blocks (matrices x column tiles) are at least half the SMs", "batched-slab"},
          {"8", "k <= 128, m > 16, density >= 3/8 and nb >= 32 (16-bit: 1/4 and 16), or >= 32 nonzeros a row on average, tensor cores (sm_80+)", "batched-tile"},
          {"9", "k <= 128, m > 16 (16-bit where batched-slab streams, k <= 32 and nb > 32 a multiple of 4: any m), and either f32 or f64 with density >= 1/4 (f64: 1/8, below 1/4 where the column tile is 64 or 128 columns or nb <= 32), >= 16 nonzeros a row on average (f64: 8), nb >= 32 (f64: 16), or 16-bit with a row longer than 4 nonzeros and either nb >= 16 not a multiple of 8, or >= 6 nonzeros a row on average with nb >= 64, >= 8 with nb >= 32, >= 12 with nb >= 16; the largest A_i dense and a column tile of B_i fit two blocks an SM, and the batch's matrices x column tiles are at least twice the SMs, tensor cores (sm_80+)", "batched-slab"},
          {"10", "k > 128, density >= 3/8, nb >= 32, tensor cores (sm_80+)", "batched-tile"},
          {"11", "nb <= 8, >= 16 nonzeros a row on average, not f64", "batched-split"},
          {"12", ">= 32 nonzeros a row on average, density >= 3/8, nb <= 16, tensor cores (sm_80+)", "batched-mma"},
          {"13", "<= 4 nonzeros a row on average, A_i of >= 24 columns on average, the B_i of the rows in flight (32 lanes a row) pass half of L2, and a column of the largest B_i with the longest row's nonzeros fits shared memory", "batched-staged"},
          {"14", "f64, k <= 64, and the B_i of the rows in flight pass half of L2", "batched-tile"},
          {"15", "f64, k <= 128, A_i of >= 80 columns on average, >= 12 nonzeros a row on average, and either nb >= 128 with B larger than L2 or nb >= 48 with density >= 3/16, tensor cores (sm_80+)", "batched-tile"},
          {"16", "no row longer than 4 nonzeros, unless f32 and the B_i of the rows in flight pass half of L2", "batched-ell"},
          {"17", "otherwise", "batched-csr-flat"}};
}

template <typename T>
std::vector<std::unique_ptr<Method<T>>> kernel_methods();

// Ours: auto, the planner's choice (choose_ours) run as a method of its own; info.choice names it.
template <typename T>
class Auto : public Method<T> {
 public:
  std::string name() const override { return "auto"; }
  std::string family() const override { return "ours"; }
  std::string not_applicable(const HostBatch<T>& h, const DeviceInfo& dev) const override {
    const Choice c = choose_ours(h, dev);
    auto m = make(c.method);
    const std::string na = m->not_applicable(h, dev);
    return na.empty() ? "" : "the planner's choice " + c.method + " does not apply: " + na;
  }
  void setup(const HostBatch<T>& h, const DeviceInfo& dev, cudaStream_t s) override {
    const Choice c = choose_ours(h, dev);
    inner_ = make(c.method);
    inner_->setup(h, dev, s);
    this->info_s = inner_->info_s;
    this->info_n = inner_->info_n;
    this->info_s["choice"] = c.method;
    this->info_s["rule"] = c.rule;
  }
  void upload(cudaStream_t s) override { inner_->upload(s); }
  void run(cudaStream_t s) override { inner_->run(s); }
  T* output() override { return inner_->output(); }
  size_t peak_bytes() const override { return inner_ ? inner_->peak_bytes() : 0; }

 private:
  static std::unique_ptr<Method<T>> make(const std::string& name) {
    for (auto& m : kernel_methods<T>())
      if (m->name() == name) return std::move(m);
    throw std::logic_error("planner chose an unknown method " + name);
  }
  std::unique_ptr<Method<T>> inner_;
};

// Every kernel method of ours and the paper's, by name (the driver adds the peers).
template <typename T>
std::vector<std::unique_ptr<Method<T>>> kernel_methods() {
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
  v.emplace_back(new ColMajor<T>());
  v.emplace_back(new SplitRows<T>());
  v.emplace_back(new Staged<T>());
  v.emplace_back(new Tile<T>());
  v.emplace_back(new Slab<T>());
  v.emplace_back(new MmaTiles<T>());
  return v;
}
template <typename T>
inline std::vector<std::unique_ptr<Method<T>>> all_kernel_methods() {
  auto v = kernel_methods<T>();
  v.emplace_back(new Auto<T>());
  return v;
}

}  // namespace spb
