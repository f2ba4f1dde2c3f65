// The one error-check macro family: every CUDA runtime call goes through CUDA_CHECK, which throws
// spb::CudaError naming the call, the file and the line. Drivers catch it per method and report it.
#pragma once
#include <cuda_runtime.h>
#include <stdexcept>
#include <string>

namespace spb {
struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
inline void fail(const char* lib, const char* call, const std::string& what, const char* file, int line) {
  throw CudaError(std::string(lib) + " call " + call + " failed: " + what + " (" + file + ":" + std::to_string(line) + ")");
}
}  // namespace spb

#define CUDA_CHECK(call)                                                                              \
  do {                                                                                                \
    cudaError_t spb_err_ = (call);                                                                    \
    if (spb_err_ != cudaSuccess) ::spb::fail("CUDA", #call, cudaGetErrorString(spb_err_), __FILE__, __LINE__); \
  } while (0)

// After a kernel launch: catches launch-configuration errors at the launch site.
#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())
