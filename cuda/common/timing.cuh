// Device-event timing shared by the drivers and the peers.
#pragma once
#include <cuda_runtime.h>
#include "check.cuh"

namespace spb {

// Device time of `reps` back-to-back calls of f on stream s, per call, in ms (events a and b reused).
template <typename F>
double timed_ms(cudaStream_t s, cudaEvent_t a, cudaEvent_t b, int reps, F&& f) {
  CUDA_CHECK(cudaEventRecord(a, s));
  for (int i = 0; i < reps; ++i) f();
  CUDA_CHECK(cudaEventRecord(b, s));
  CUDA_CHECK(cudaEventSynchronize(b));
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
  return double(ms) / reps;
}

}  // namespace spb
