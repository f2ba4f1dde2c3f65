// spbench-probe: prints one env line describing every GPU (docs/native-protocol.md), then done.
// Runtime API only and no kernels, so one build runs on any GPU the driver supports.
// Exit codes: 0 success, 4 no usable GPU (message on stderr), 3 other CUDA failure.
#include <cuda_runtime.h>
#include <cstdio>
#include <string>
#include "../common/check.cuh"
#include "../common/gpu_env.cuh"
#include "../common/json.hpp"


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
    const spb::Json cuda = spb::cuda_versions();
    std::string devices = "[";
    for (int d = 0; d < count; ++d) devices += (d ? "," : "") + spb::gpu_json(d);
    devices += "]";
    spb::emit_env(argv[0], devices, cuda);
    spb::emit_done();
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "spbench-probe: %s\n", ex.what());
    return 3;
  }
  return 0;
}
