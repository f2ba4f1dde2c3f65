// The `env` line (docs/native-protocol.md) and its pieces, shared by spbench-probe, the drivers and the
// plugin runners, so that every executable describes a GPU with the same fields.
#pragma once
#include <cuda_runtime.h>
#include <string>
#include "check.cuh"
#include "json.hpp"

namespace spb {

// CUDA runtime/driver versions: 13000 -> "13.0".
inline std::string cuda_version_text(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }
// cusparseGetVersion: 12603 -> "12.6.3"; cublasGetVersion: 130100 -> "13.1.0".
inline std::string cusparse_version_text(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 100) + "." + std::to_string(v % 100); }
inline std::string cublas_version_text(int v) { return std::to_string(v / 10000) + "." + std::to_string((v % 10000) / 100) + "." + std::to_string(v % 100); }

// Attributes whose cudaDeviceProp fields CUDA 13 removed (clock) are read through the attribute API.
inline int device_attr(cudaDeviceAttr a, int dev) {
  int v = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&v, a, dev));
  return v;
}

inline std::string gpu_json(int dev) {
  cudaDeviceProp p{};
  CUDA_CHECK(cudaGetDeviceProperties(&p, dev));
  return Json()
      .integer("index", dev)
      .str("name", p.name)
      .str("cc", std::to_string(p.major) + "." + std::to_string(p.minor))
      .integer("sms", p.multiProcessorCount)
      .integer("smem_per_block", (long long)p.sharedMemPerBlock)
      .integer("smem_per_block_optin", (long long)p.sharedMemPerBlockOptin)
      .integer("smem_per_sm", (long long)p.sharedMemPerMultiprocessor)
      .integer("max_threads_per_sm", p.maxThreadsPerMultiProcessor)
      .integer("max_blocks_per_sm", p.maxBlocksPerMultiProcessor)
      .num("global_mem_bytes", double(p.totalGlobalMem))
      .num("l2_bytes", double(p.l2CacheSize))
      .integer("clock_khz", device_attr(cudaDevAttrClockRate, dev))
      .integer("mem_bus_bits", device_attr(cudaDevAttrGlobalMemoryBusWidth, dev))
      .done();
}

// The env line's "cuda" object as far as every executable has it: the runtime and driver versions
// (a driver adds its libraries' versions before emit_env).
inline Json cuda_versions() {
  int rt = 0, drv = 0;
  CUDA_CHECK(cudaRuntimeGetVersion(&rt));
  CUDA_CHECK(cudaDriverGetVersion(&drv));
  Json c;
  c.str("runtime", cuda_version_text(rt)).str("driver", cuda_version_text(drv));
  return c;
}

// The env line: `devices` a JSON array of gpu_json objects, `cuda` from cuda_versions().
inline void emit_env(const std::string& exe, const std::string& devices, const Json& cuda) {
  Json().str("type", "env").integer("protocol", 1).str("backend", "cuda").str("executable", exe).raw("devices", devices).raw("cuda", cuda.done()).emit();
}

}  // namespace spb
