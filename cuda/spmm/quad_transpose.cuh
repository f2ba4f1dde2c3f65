// A transpose of 4 x 4 words within each quad of a warp (lanes 4g .. 4g + 3), by shuffles: batched-tile's
// and batched-slab's 16-bit row-major C, where lane t holds a word of each of 4 n8 tiles and wants tile t's
// 8 columns (then stored by store_row8).
#pragma once
#include <cstdint>

namespace spb {

// Lane t of each group of 4 lanes (t = lane % 4) gives p[j] and gets, in p[s], what lane s gave as p[t].
// Two exchanges of two words (lanes t ^ 2, then t ^ 1); all 32 lanes take part.
__device__ __forceinline__ void quad_transpose(uint32_t (&p)[4], int t) {
  const bool b1 = t & 2, b0 = t & 1;
  uint32_t r0 = __shfl_xor_sync(0xffffffffu, b1 ? p[0] : p[2], 2), r1 = __shfl_xor_sync(0xffffffffu, b1 ? p[1] : p[3], 2);
  if (b1) p[0] = r0, p[1] = r1;
  else p[2] = r0, p[3] = r1;
  r0 = __shfl_xor_sync(0xffffffffu, b0 ? p[0] : p[1], 1), r1 = __shfl_xor_sync(0xffffffffu, b0 ? p[2] : p[3], 1);
  if (b0) p[0] = r0, p[2] = r1;
  else p[1] = r0, p[3] = r1;
}

}  // namespace spb
