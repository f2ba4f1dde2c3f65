// spbench-probe: prints one env line describing every GPU (docs/native-protocol.md), then done.
// Runtime API only and no kernels, so one build runs on any GPU the driver supports.
// Exit codes: 0 success, 4 no usable GPU (message on stderr), 3 other CUDA failure.
#include <cuda_runtime.h>
#include <cstdio>
#include <string>
#include "../common/check.cuh"
#include "../common/json.hpp"

namespace {

std::string version_text(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

// Attributes whose cudaDeviceProp fields CUDA 13 removed (clock) are read through the attribute API.
int attr(cudaDeviceAttr a, int dev) {
  int v = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&v, a, dev));
  return v;
}

std::string gpu_json(int dev) {
  cudaDeviceProp p{};
  CUDA_CHECK(cudaGetDeviceProperties(&p, dev));
  return spb::Json()
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
      .integer("clock_khz", attr(cudaDevAttrClockRate, dev))
      .integer("mem_bus_bits", attr(cudaDevAttrGlobalMemoryBusWidth, dev))
      .done();
}

}  // namespace

int main(int argc, char** argv) {
  (void)argc;
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    std::fprintf(stderr, "spbench-probe: no usable CUDA GPU: %s. Check that an NVIDIA GPU and its driver are installed (nvidia-smi), or use --backend cpu.\n",
                 e != cudaSuccess ? cudaGetErrorString(e) : "the driver reports 0 devices");
    return 4;
  }
  try {
    int runtime = 0, driver = 0;
    CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    CUDA_CHECK(cudaDriverGetVersion(&driver));
    std::string devices = "[";
    for (int d = 0; d < count; ++d) devices += (d ? "," : "") + gpu_json(d);
    devices += "]";
    const std::string cuda = spb::Json().str("runtime", version_text(runtime)).str("driver", version_text(driver)).done();
    spb::Json().str("type", "env").integer("protocol", 1).str("backend", "cuda").str("executable", argv[0])
        .raw("devices", devices).raw("cuda", cuda).emit();
    spb::emit_done();
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "spbench-probe: %s\n", ex.what());
    return 3;
  }
  return 0;
}
