// The tensor cores' rate through mma.sync (the instruction our 16-bit kernels use) on this GPU: every warp runs
// chains of m16n8k16 f16 -> f32 products, 8 independent accumulators a warp, from registers (no memory).
//   nvcc -O3 -arch=sm_90 dev/spmm/mma_rate.cu -o /tmp/mma_rate && /tmp/mma_rate      (the GPU machine)
// Prints, per warps a block and blocks an SM, the dense FLOP rate (2 x 16 x 8 x 16 a product).
#include <cstdint>
#include <cstdio>
#include <cuda_fp16.h>
__global__ void rate(float* out, int iters) {
  float acc[8][4] = {};
  uint32_t a0 = threadIdx.x, a1 = a0 * 3, a2 = a0 * 5, a3 = a0 * 7, b0 = a0 * 11, b1 = a0 * 13;
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int j = 0; j < 8; ++j)
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                   : "+f"(acc[j][0]), "+f"(acc[j][1]), "+f"(acc[j][2]), "+f"(acc[j][3])
                   : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  }
  float s = 0;
  for (int j = 0; j < 8; ++j) s += acc[j][0] + acc[j][1] + acc[j][2] + acc[j][3];
  if (s == 1.2345f) out[0] = s;  // (keeps the products)
}
int main() {
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  float* out;
  cudaMalloc(&out, 4);
  const int iters = 4096;
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0), cudaEventCreate(&e1);
  printf("%s, %d SMs\n", p.name, p.multiProcessorCount);
  for (int warps : {4, 8, 16})
    for (int per_sm : {1, 2, 4}) {
      const int blocks = p.multiProcessorCount * per_sm;
      rate<<<blocks, 32 * warps>>>(out, 16);
      cudaEventRecord(e0);
      rate<<<blocks, 32 * warps>>>(out, iters);
      cudaEventRecord(e1);
      cudaEventSynchronize(e1);
      float ms;
      cudaEventElapsedTime(&ms, e0, e1);
      const double flops = 2.0 * 16 * 8 * 16 * 8 * double(iters) * warps * blocks;
      printf("warps/block %2d blocks/SM %d: %.1f TFLOPS (%.3f ms)\n", warps, per_sm, flops / ms / 1e9, ms);
    }
  return cudaGetLastError() != cudaSuccess;
}
