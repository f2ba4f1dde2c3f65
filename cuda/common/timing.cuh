// Device-event timing and graph-capture cleanup shared by the drivers and the peers.
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

// After an exception: ends a stream capture that the failed code left open (dropping its graph), so
// the stream takes work again. Not checked: called from error paths.
inline void abandon_capture(cudaStream_t s) {
  cudaStreamCaptureStatus st;
  if (cudaStreamIsCapturing(s, &st) == cudaSuccess && st != cudaStreamCaptureStatusNone) {
    cudaGraph_t g = nullptr;
    cudaStreamEndCapture(s, &g);
    if (g) cudaGraphDestroy(g);
  }
}

}  // namespace spb
