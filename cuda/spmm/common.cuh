// Batched SpMM: device layout of a batch, dense indexing and the Method interface every kernel and
// peer implements (so the driver times and verifies them all alike). Each method's device memory goes
// through its own TrackingAllocator (cuda/common/tracking_alloc.cuh, plain cudaMalloc).
#pragma once
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>
#include "../common/check.cuh"
#include "../common/tracking_alloc.cuh"
#include "../common/value_traits.hpp"

namespace spb {

enum class Layout { Row, Col };

// Element (r, j) of a rows x nb dense block stored row-major (ld = nb) or column-major (ld = rows).
template <Layout L>
__host__ __device__ __forceinline__ int64_t didx(int r, int j, int rows, int nb) {
  return L == Layout::Row ? int64_t(r) * nb + j : int64_t(j) * rows + r;
}

// A store of C, which the kernel writes once and never reads: st.global.cs (evict-first). In ell / csr-flat /
// staged measured 0-25 % faster (one cell 4 % slower), why is not established: the kernels' schedules moved with it
// (docs/spmm-notes.md, "Evict-first C stores"). SPB_C_PLAIN: plain stores, for development A/Bs.
template <typename V>
__host__ __device__ __forceinline__ void store_c(V* p, const V& v) {
#if defined(__CUDA_ARCH__) && !defined(SPB_C_PLAIN)
  if constexpr (sizeof(V) == 16) __stcs(reinterpret_cast<int4*>(p), *reinterpret_cast<const int4*>(&v));
  else if constexpr (sizeof(V) == 8) __stcs(reinterpret_cast<int2*>(p), *reinterpret_cast<const int2*>(&v));
  else if constexpr (sizeof(V) == 4) __stcs(reinterpret_cast<int*>(p), *reinterpret_cast<const int*>(&v));
  else *p = v;
#else
  *p = v;
#endif
}

// Two 16-bit values as one word, a in the low half (the lower address): batched-tile's and batched-slab's C rows,
// batched-col's two rows a lane.
template <typename T>
__device__ __forceinline__ uint32_t pack16(float a, float b) {
  const T lo = narrow<T>(a), hi = narrow<T>(b);
  return uint32_t(*reinterpret_cast<const uint16_t*>(&lo)) | (uint32_t(*reinterpret_cast<const uint16_t*>(&hi)) << 16);
}

// n / d for 0 <= n < 2^31 by a multiply and a shift (d >= 1 fixed for a launch, made on the host): a
// division by a runtime int is ~20 instructions, and batched-col's uniform path did five a thread. The
// round-up method: s = ceil(log2 d), m = floor(2^32 (2^s - d) / d) + 1, n / d = (umulhi(n, m) + n) >> s
// (the sum fits 32 bits while n < 2^31). d = 0 is kept as "no divisor" (q() must not be called).
struct FastDiv {
  int d = 0;
  unsigned m = 0;
  int s = 0;
  FastDiv() = default;
  __host__ __device__ FastDiv(int divisor) : d(divisor) {  // implicit: launches and the host emulation pass the int
    if (d <= 0) return;
    while ((1ll << s) < d) ++s;
    m = unsigned(((1ull << 32) * ((1ull << s) - unsigned(d))) / unsigned(d) + 1);
  }
  __host__ __device__ __forceinline__ int q(int n) const { return q(n, m, s); }
  __host__ __device__ __forceinline__ static int q(int n, unsigned m, int s) {
#ifdef __CUDA_ARCH__
    const unsigned hi = __umulhi(unsigned(n), m);
#else
    const unsigned hi = unsigned((uint64_t(unsigned(n)) * m) >> 32);
#endif
    return int((hi + unsigned(n)) >> s);
  }
};

// Device view of a batch. CSR is concatenated: rp has total_rows + 1 absolute offsets (the
// block-diagonal row pointer), ci holds columns local to each matrix. Per-matrix prefix arrays
// (batch + 1 entries) give rows, columns and nonzeros; B_i starts at col_off[i]*nb, C_i at row_off[i]*nb.
// COO arrays hold the same nonzeros, local row/col, shuffled within each matrix (not sorted).
template <typename T>
struct BatchView {
  int batch = 0, nb = 0, max_m = 0;
  const int* row_off = nullptr;
  const int* col_off = nullptr;
  const int* nnz_off = nullptr;
  const int* rp = nullptr;
  const int* ci = nullptr;
  const int* ci_g = nullptr;  // block-diagonal columns (batched-csr-flat)
  const T* val = nullptr;
  const int* coo_r = nullptr;
  const int* coo_c = nullptr;
  const T* coo_v = nullptr;
  const T* B = nullptr;
  T* C = nullptr;
};

// Host copy of a batch, values rounded to T, in pinned memory so that e2e copies are real DMA.
template <typename T>
struct Pinned {
  T* p = nullptr;
  size_t n = 0;
  Pinned() = default;
#ifdef SPB_PLAN_CHECK  // the host-only planner check (cuda/check/plan_check.cu) runs where no GPU is: plain heap memory
  explicit Pinned(size_t count) : n(count) { p = static_cast<T*>(std::malloc(std::max<size_t>(n, 1) * sizeof(T))); }
#else
  explicit Pinned(size_t count) : n(count) { CUDA_CHECK(cudaMallocHost(&p, std::max<size_t>(n, 1) * sizeof(T))); }
#endif
  Pinned(const Pinned&) = delete;
  Pinned& operator=(const Pinned&) = delete;
  Pinned(Pinned&& o) noexcept : p(o.p), n(o.n) { o.p = nullptr; o.n = 0; }
  Pinned& operator=(Pinned&& o) noexcept { std::swap(p, o.p); std::swap(n, o.n); return *this; }
#ifdef SPB_PLAN_CHECK
  ~Pinned() { std::free(p); }
#else
  ~Pinned() { if (p) cudaFreeHost(p); }
#endif
  T& operator[](size_t i) { return p[i]; }
  const T& operator[](size_t i) const { return p[i]; }
  size_t bytes() const { return n * sizeof(T); }
};

template <typename T>
struct HostBatch {
  int batch = 0, nb = 0, max_m = 0, max_k = 0, max_nnz = 0;
  int64_t total_rows = 0, total_cols = 0, total_nnz = 0;
  Layout layout = Layout::Row;
  bool uniform = true;  // same m, k and nnz for every matrix (strided-batch peers need it)
  std::vector<int> m, k, nnz;
  Pinned<int> row_off, col_off, nnz_off, rp, ci, coo_r, coo_c;
  Pinned<int> ci_g;  // ci + col_off[i]: columns as rows of B stacked (the block-diagonal view)
  Pinned<T> val, coo_v, B;  // B: each B_i (k_i x nb) stacked, in `layout`
};

// Device budgets derived from the device (never P100 constants).
struct DeviceInfo {
  cudaDeviceProp prop{};
  size_t smem_optin = 0, smem_sm = 0;
  int sms = 0, max_threads_sm = 0, max_blocks_sm = 0;
  static DeviceInfo query(int dev = 0) {
    DeviceInfo d;
    CUDA_CHECK(cudaGetDeviceProperties(&d.prop, dev));
    d.smem_optin = d.prop.sharedMemPerBlockOptin;
    d.smem_sm = d.prop.sharedMemPerMultiprocessor;
    d.sms = d.prop.multiProcessorCount;
    d.max_threads_sm = d.prop.maxThreadsPerMultiProcessor;
    d.max_blocks_sm = d.prop.maxBlocksPerMultiProcessor;
    return d;
  }
  // Shared memory one block may use so that `blocks` blocks stay resident per SM (1 KB per block
  // is reserved by the hardware on sm_8x/9x), capped by the opt-in per-block limit.
  size_t budget_for(int blocks) const {
    size_t per = smem_sm / std::max(blocks, 1);
    per = per > 1024 ? per - 1024 : 0;
    return std::min(per, smem_optin);
  }
  // The most one block of a single-block-an-SM plan takes: the opt-in limit less 512 bytes to spare.
  size_t budget_one() const { return smem_optin > 512 ? smem_optin - 512 : 0; }
};

// Thrown by a method's setup when it finds that it does not apply after all (a library refuses the value
// type with every algorithm it has): the driver reports the method as not applicable with what().
struct NotApplicable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One SpMM method (ours, the paper's, or a peer). The driver calls, in order: not_applicable(),
// setup() (allocations + first upload, untimed), then run() / upload() any number of times.
template <typename T>
class Method {
 public:
  virtual ~Method() = default;
  virtual std::string name() const = 0;
  virtual std::string family() const = 0;  // "ours", "paper" or "peer"
  // Non-empty: why the method does not apply to this batch/layout.
  virtual std::string not_applicable(const HostBatch<T>&, const DeviceInfo&) const { return ""; }
  virtual void setup(const HostBatch<T>& h, const DeviceInfo& dev, cudaStream_t s) = 0;
  // Host->device copies of everything the method reads (A in its format, pointer arrays, B): e2e mode.
  virtual void upload(cudaStream_t s) = 0;
  // The device work of one SpMM of the whole batch (memsets it needs included).
  virtual void run(cudaStream_t s) = 0;
  // C on the device: each C_i (m_i x nb) stacked, in the batch's layout.
  virtual T* output() = 0;
  // Peers whose library calls may refuse stream capture say so (graph mode then reports n/a).
  virtual bool library() const { return false; }
  virtual size_t peak_bytes() const { return mem.peak_since_begin(); }
  std::map<std::string, std::string> info_s;
  std::map<std::string, double> info_n;

 protected:
  // Every device allocation of the method (library workspaces and dense copies included), so
  // peak_bytes() is exact for what the method itself allocated.
  TrackingAllocator mem;
};

inline int ceil_div(int64_t a, int64_t b) { return int((a + b - 1) / b); }
inline int next_pow2(int x) { int p = 1; while (p < x) p <<= 1; return p; }
inline int log2i(int x) { int l = 0; while ((1 << l) < x) ++l; return l; }
// The paper's sub-warp: 32 if nb > 16, else the smallest power of two >= nb.
inline int sub_warp(int nb) { return nb > 16 ? 32 : next_pow2(std::max(nb, 1)); }

}  // namespace spb
