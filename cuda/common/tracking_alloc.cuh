// The one tracking device allocator of the native side: every device allocation of a method (ours, a
// peer's buffers and workspaces, a plugin's, the output included) goes through it, so each method's peak
// device memory is measured the same way. It records the live bytes and their peak, and can poison each
// new block (0xFF bytes: NaN values, -1 indices) so an unwritten output entry is caught by verification.
//
// Two ways to get memory, each kept as its path had it (they are not interchangeable, so not merged):
//  * TrackingAllocator()  — plain cudaMalloc / cudaFree (synchronous). SpMM methods (spmm/common.cuh
//    Method::mem): they allocate in setup, outside every timed region and graph capture.
//  * TrackingAllocator(s) — stream-ordered cudaMallocAsync / cudaFreeAsync on stream s, from the device's
//    default pool (kept cached by keep_pool_memory). Hash SpGEMM, the cuSPARSE SpGEMM peer and the plugin
//    runners: they allocate inside the timed region, where a pool lookup replaces a driver call.
// A request is rounded up to a minimum block (plain: 1 byte, stream-ordered: 16 bytes, as each path had it)
// so that a zero-length array still gets a distinct pointer; the peak counts the rounded bytes.
#pragma once
#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include "check.cuh"

namespace spb {

class TrackingAllocator {
 public:
  TrackingAllocator() = default;
  explicit TrackingAllocator(cudaStream_t s) : stream_(s), ordered_(true) {}
  TrackingAllocator(const TrackingAllocator&) = delete;
  TrackingAllocator& operator=(const TrackingAllocator&) = delete;
  ~TrackingAllocator() { free_all(); }

  void* raw(size_t bytes) {
    void* p = nullptr;
    const size_t n = std::max<size_t>(bytes, ordered_ ? 16 : 1);
    if (ordered_) CUDA_CHECK(cudaMallocAsync(&p, n, stream_));
    else CUDA_CHECK(cudaMalloc(&p, n));
    sizes_[p] = n;
    live_ += n;
    peak_ = std::max(peak_, live_);
    if (poison_) CUDA_CHECK(cudaMemsetAsync(p, 0xFF, n, stream_));
    return p;
  }
  template <typename U> U* alloc(size_t count) { return static_cast<U*>(raw(count * sizeof(U))); }
  // Frees a block of this allocator (nullptr and foreign pointers are ignored).
  void free(void* p) {
    if (!p) return;
    auto it = sizes_.find(p);
    if (it == sizes_.end()) return;
    live_ -= it->second;
    sizes_.erase(it);
    // not checked: called from cleanup paths that must not throw
    if (ordered_) cudaFreeAsync(p, stream_);
    else cudaFree(p);
  }
  // Frees every live block (after a method failed half-way, or at the end of a measurement).
  void free_all() { while (!sizes_.empty()) free(sizes_.begin()->first); }
  // Starts a new measurement: the peak is counted from the bytes live now.
  void begin() { base_ = live_; peak_ = live_; }
  // Peak live bytes since begin() (since construction where begin() was never called).
  size_t peak_since_begin() const { return peak_ - base_; }
  void set_poison(bool on) { poison_ = on; }

 private:
  cudaStream_t stream_ = nullptr;
  bool ordered_ = false;
  std::unordered_map<void*, size_t> sizes_;
  size_t live_ = 0, peak_ = 0, base_ = 0;
  bool poison_ = false;
};

// Keeps the default memory pool's freed blocks cached, so the stream-ordered allocations inside the timed
// region (ours and cuSPARSE's) cost a pool lookup rather than a driver call after warm-up.
inline void keep_pool_memory(int device) {
  cudaMemPool_t pool;
  CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
  uint64_t threshold = UINT64_MAX;
  CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
}

}  // namespace spb
