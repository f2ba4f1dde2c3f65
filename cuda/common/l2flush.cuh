// --cache cold on the GPU: a buffer of twice the device's L2, allocated once per process (never
// counted in a method's peak memory), written with cudaMemsetAsync on the method's stream before
// every sample, outside the timed region, so each sample starts with none of its data in L2.
#pragma once
#include <cuda_runtime.h>
#include "check.cuh"

namespace spb {

class L2Flusher {
 public:
  L2Flusher() = default;
  L2Flusher(const L2Flusher&) = delete;
  L2Flusher& operator=(const L2Flusher&) = delete;
  ~L2Flusher() { if (buf_) cudaFree(buf_); }

  // Allocates (on first use) 2 x L2 of the current device.
  void ensure() {
    if (buf_) return;
    int dev = 0, l2 = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    bytes_ = size_t(l2 > 0 ? l2 : (8 << 20)) * 2;
    CUDA_CHECK(cudaMalloc(&buf_, bytes_));
  }
  // Writes the whole buffer on stream s (a new byte value each time, so no write can be skipped).
  void flush(cudaStream_t s) {
    ensure();
    CUDA_CHECK(cudaMemsetAsync(buf_, int(++tick_ & 0xFF), bytes_, s));
  }
  size_t bytes() const { return bytes_; }

 private:
  void* buf_ = nullptr;
  size_t bytes_ = 0;
  unsigned tick_ = 0;
};

}  // namespace spb
