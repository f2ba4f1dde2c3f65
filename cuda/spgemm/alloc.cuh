// Tracking device allocator for SpGEMM methods (ours and cuSPARSE's buffers alike): stream-ordered
// cudaMallocAsync from the device's default pool, with the live bytes and their peak recorded, so every
// method's peak device memory (output included) is measured the same way. Optionally poisons each new
// block (0xFF bytes: NaN values, -1 indices) so an unwritten output entry is caught by verification.
#pragma once
#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include "../common/check.cuh"

namespace spb::spgemm {

class TrackingAllocator {
 public:
  explicit TrackingAllocator(cudaStream_t s) : stream_(s) {}
  TrackingAllocator(const TrackingAllocator&) = delete;
  TrackingAllocator& operator=(const TrackingAllocator&) = delete;
  ~TrackingAllocator() {
    free_all();
  }

  void* raw(size_t bytes) {
    void* p = nullptr;
    const size_t n = std::max<size_t>(bytes, 16);
    CUDA_CHECK(cudaMallocAsync(&p, n, stream_));
    sizes_[p] = n;
    live_ += n;
    peak_ = std::max(peak_, live_);
    if (poison_) CUDA_CHECK(cudaMemsetAsync(p, 0xFF, n, stream_));
    return p;
  }
  template <typename U> U* alloc(size_t count) { return static_cast<U*>(raw(count * sizeof(U))); }
  void free(void* p) {
    if (!p) return;
    auto it = sizes_.find(p);
    if (it == sizes_.end()) return;
    live_ -= it->second;
    sizes_.erase(it);
    cudaFreeAsync(p, stream_);  // not checked: called from cleanup paths that must not throw
  }
  // Frees every live block (after a method failed half-way).
  void free_all() { while (!sizes_.empty()) free(sizes_.begin()->first); }
  // Starts a new measurement: the peak is counted from the bytes live now.
  void begin() { base_ = live_; peak_ = live_; }
  size_t peak_since_begin() const { return peak_ - base_; }
  size_t live() const { return live_; }
  void set_poison(bool on) { poison_ = on; }
  cudaStream_t stream() const { return stream_; }

 private:
  cudaStream_t stream_;
  std::unordered_map<void*, size_t> sizes_;
  size_t live_ = 0, peak_ = 0, base_ = 0;
  bool poison_ = false;
};

// Keeps the default memory pool's freed blocks cached, so the allocations inside the timed region
// (ours and cuSPARSE's) cost a pool lookup rather than a driver call after warm-up.
inline void keep_pool_memory(int device) {
  cudaMemPool_t pool;
  CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
  uint64_t threshold = UINT64_MAX;
  CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
}

}  // namespace spb::spgemm
