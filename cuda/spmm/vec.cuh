// Our batched CSR kernel for the H100 (beyond the paper): a row's output is accumulated in
// registers (in acc_t<T>: float for f16/bf16), each lane owning V consecutive columns loaded/stored as
// one vector (16 B: float4, double2, 8 halves) when B and C are row-major and nb % V == 0 (batched-csr-flat and
// batched-ell: 4 or 8 bytes where nb is not a multiple of 16 bytes, vec_plan's mid widths). Threads are laid out as batch x max_m rows x
// tpr lanes, so a block covers several small matrices at once; a grid-stride loop lets the same
// kernel run as a persistent grid (grid capped at what the SMs hold) for huge batches.
#pragma once
#include <cstdlib>
#include <string>
#include <type_traits>
#include "common.cuh"

namespace spb {

template <typename T, int V>
struct alignas(sizeof(T) * V) VecT {
  T x[V];
};

// V accumulators rounded to T and stored as one vector (p aligned to V values).
template <typename T, int V>
__device__ __forceinline__ void store_vec(T* p, const acc_t<T> (&acc)[V]) {
  VecT<T, V> o;
#pragma unroll
  for (int e = 0; e < V; ++e) o.x[e] = narrow<T>(acc[e]);
  store_c(reinterpret_cast<VecT<T, V>*>(p), o);
}

// One CSR row times B into C: lane owns columns j = lane*V + c*tpr*V, accumulated in registers;
// CH column chunks are processed together (independent loads in flight per nonzero).
// B and C point at the row's matrix (k = its columns, m = its rows; only used for column-major).
template <typename T, Layout L, int V, int CH = 1>
__device__ __forceinline__ void row_times_b(const int* __restrict__ ci, const T* __restrict__ val, int p0, int p1, const T* B, int k, T* C, int row,
                                            int m, int nb, int lane, int tpr) {
  using A = acc_t<T>;
  const int step = tpr * V;
  for (int j = lane * V; j < nb; j += step * CH) {
    A acc[CH][V];
#pragma unroll
    for (int h = 0; h < CH; ++h)
#pragma unroll
      for (int e = 0; e < V; ++e) acc[h][e] = A(0);
    for (int q = p0; q < p1; ++q) {
      const int c = __ldg(ci + q);
      const A a = widen(__ldg(val + q));
#pragma unroll
      for (int h = 0; h < CH; ++h) {
        const int jj = j + h * step;
        if (CH > 1 && jj >= nb) break;
        if (V > 1) {  // only instantiated with V > 1 for row-major and nb % V == 0
          const VecT<T, V> b = *reinterpret_cast<const VecT<T, V>*>(B + int64_t(c) * nb + jj);
#pragma unroll
          for (int e = 0; e < V; ++e) acc[h][e] += a * widen(b.x[e]);
        } else {
          acc[h][0] += a * widen(B[didx<L>(c, jj, k, nb)]);
        }
      }
    }
#pragma unroll
    for (int h = 0; h < CH; ++h) {
      const int jj = j + h * step;
      if (CH > 1 && jj >= nb) break;
      if (V > 1) store_vec<T, V>(C + int64_t(row) * nb + jj, acc[h]);
      else store_c(&C[didx<L>(row, jj, m, nb)], narrow<T>(acc[h][0]));
    }
  }
}

// batched-csr-vec: threads laid out as batch x max_m rows x tpr lanes (the paper's Batched CSR
// layout), so a thread finds its matrix by one division; rows past a smaller matrix exit.
template <typename T, Layout L, int V>
__global__ void __launch_bounds__(256) csr_vec_kernel(BatchView<T> v, int lg_tpr, unsigned total) {
  const int tpr = 1 << lg_tpr;
  for (unsigned g = blockIdx.x * blockDim.x + threadIdx.x; g < total; g += gridDim.x * blockDim.x) {
    const unsigned t = g >> lg_tpr;
    const int mat = int(t / unsigned(v.max_m));
    const int row = int(t - unsigned(mat) * unsigned(v.max_m));
    const int r0 = v.row_off[mat], m = v.row_off[mat + 1] - r0;
    if (row >= m) continue;
    const int c0 = v.col_off[mat];
    row_times_b<T, L, V>(v.ci, v.val, v.rp[r0 + row], v.rp[r0 + row + 1], v.B + int64_t(c0) * v.nb, v.col_off[mat + 1] - c0,
                         v.C + int64_t(r0) * v.nb, row, m, v.nb, int(g & unsigned(tpr - 1)), tpr);
  }
}

// batched-csr-flat: the batch seen as its block-diagonal matrix. Columns are stored as rows of B
// stacked (col_off[i] + local column, built once with the device copy), so a thread needs no
// matrix lookup: global row -> rp -> columns -> B. One dependent load fewer than csr_vec_kernel,
// and no idle threads on mixed batches. Row-major B and C only (C_i rows are then simply stacked).
template <typename T, int V, int CH>
__global__ void __launch_bounds__(1024) csr_flat_kernel(const int* __restrict__ rp, const int* __restrict__ cig, const T* __restrict__ val,
                                                         const T* B, T* C, int nb, int lg_tpr, unsigned total) {
  const int tpr = 1 << lg_tpr;
  for (unsigned g = blockIdx.x * blockDim.x + threadIdx.x; g < total; g += gridDim.x * blockDim.x) {
    const int row = int(g >> lg_tpr);
    row_times_b<T, Layout::Row, V, CH>(cig, val, __ldg(rp + row), __ldg(rp + row + 1), B, 0, C, row, 0, nb, int(g & unsigned(tpr - 1)), tpr);
  }
}

// batched-ell: like batched-csr-flat, but each row's nonzeros sit in K fixed slots (ELL, padded
// with column -1), built once from the CSR with the device copy. The row pointer level disappears:
// a thread loads its row's K columns/values at once (independent loads), then the K rows of B.
template <typename T, int V, int K>
__global__ void __launch_bounds__(1024) ell_flat_kernel(const int* __restrict__ ec, const T* __restrict__ ev, const T* B, T* C, int nb, int lg_tpr,
                                                          unsigned total) {
  const int tpr = 1 << lg_tpr;
  for (unsigned g = blockIdx.x * blockDim.x + threadIdx.x; g < total; g += gridDim.x * blockDim.x) {
    const int row = int(g >> lg_tpr), lane = int(g & unsigned(tpr - 1));
    using A = acc_t<T>;
    int c[K];
    A a[K];
#pragma unroll
    for (int s = 0; s < K; ++s) { c[s] = __ldg(ec + int64_t(row) * K + s); a[s] = widen(__ldg(ev + int64_t(row) * K + s)); }
    for (int j = lane * V; j < nb; j += tpr * V) {
      A acc[V];
#pragma unroll
      for (int e = 0; e < V; ++e) acc[e] = A(0);
#pragma unroll
      for (int s = 0; s < K; ++s) {
        if (c[s] < 0) continue;
        const VecT<T, V> b = *reinterpret_cast<const VecT<T, V>*>(B + int64_t(c[s]) * nb + j);
#pragma unroll
        for (int e = 0; e < V; ++e) acc[e] += a[s] * widen(b.x[e]);
      }
      store_vec<T, V>(C + int64_t(row) * nb + j, acc);
    }
  }
}

// Launch plan for csr_vec_kernel: vector width, lanes per row, threads in all.
struct VecPlan {
  int V = 1, lg_tpr = 0;
  unsigned total = 0;
};
// Values a lane loads from a row of B at once: row-major, the most (up to 16 bytes) that divide nb and nv, so that every
// vector lies inside B's row and is aligned (B from cudaMalloc); column-major, 1. batched-split's vw (nv: its columns a
// lane; 16-bit rows of nb % 8 != 0 took a 2-byte load a value there: nb 6, six loads a nonzero) and vec_plan's mid widths.
template <typename T>
__host__ __device__ inline int vec_width_for(int nb, int nv, bool row) {
  int w = row ? 16 / int(sizeof(T)) : 1;
  while (w > 1 && (nb % w != 0 || nv % w != 0)) w /= 2;
  return w;
}
// $SPB_SPMM_VEC_MID=0 (development A/Bs only): batched-csr-flat and batched-ell as before, 16 bytes or one value.
inline bool vec_mid() {
  const char* e = std::getenv("SPB_SPMM_VEC_MID");
  return !(e && std::string(e) == "0");
}
// mid (batched-csr-flat, batched-ell): where nb is not a multiple of a 16-byte vector, the widest vector (4 or 8
// bytes) that divides nb, so that every vector lies inside B's row and is aligned; else (batched-csr-vec) 16 bytes or
// one value.
template <typename T>
inline VecPlan vec_plan(int nb, int64_t rows, Layout layout, int ch = 1, bool mid = false) {
  VecPlan p;
  const int vmax = int(16 / sizeof(T));
  p.V = mid ? vec_width_for<T>(nb, vmax, layout == Layout::Row) : (layout == Layout::Row && nb % vmax == 0) ? vmax : 1;
  const int lanes = std::min(32, next_pow2(std::max(1, ceil_div(nb, p.V * ch))));
  p.lg_tpr = log2i(lanes);
  p.total = unsigned(uint64_t(rows) * lanes);
  return p;
}

// f(std::integral_constant<int, V>) for a vector of V values (vec_plan's: 1, 2, 4 or 8, at most 16 bytes).
template <typename T, typename F>
inline void with_vec_width(int V, F&& f) {
  constexpr int VM = 16 / sizeof(T);
  if (V >= VM) f(std::integral_constant<int, VM>());
  else if (V >= 4) f(std::integral_constant<int, (4 < VM ? 4 : VM)>());
  else if (V >= 2) f(std::integral_constant<int, 2>());
  else f(std::integral_constant<int, 1>());
}

// Whether the B_i that the resident rows read, at `lanes` lanes a row, would pass half of L2 (then a
// B_i is evicted before its rows are done and read from DRAM again). b_row = bytes of B per row of
// the batch (B / rows).
inline bool b_overflows_l2(double b_row, int lanes, const DeviceInfo& dev) {
  return double(dev.sms) * dev.max_threads_sm / lanes * b_row > dev.prop.l2CacheSize / 2.0;
}

// More lanes a row (past 32, up to the row's columns in one pass) while b_overflows_l2: fewer rows,
// so fewer B_i, are in flight. Measured on the H100 (batched-csr-flat; docs/spmm-notes.md, "Bandwidth-bound cells"):
// batch 3000, dim 96, 6 a row, nb 512/1024, f64: 1130/2276 -> 891/1788 us; batch 2000, dim 32, 3 a row,
// nb 2048, f32: 428 -> 361 us. (batched-ell does not gain: 6 slots f64 lost 8-15 %.)
inline void widen_for_l2(VecPlan& p, int nb, int ch, double b_row, const DeviceInfo& dev) {
  const char* off = std::getenv("SPB_SPMM_L2");  // "off": development A/B only
  if (off && std::string(off) == "off") return;
  const uint64_t rows = uint64_t(p.total) >> p.lg_tpr;
  const int full = next_pow2(std::max(1, ceil_div(nb, p.V * ch)));
  int lanes = 1 << p.lg_tpr;
  while (lanes < full && lanes < 1024 && rows * uint64_t(lanes) * 2 < (1ull << 31) && b_overflows_l2(b_row, lanes, dev)) lanes *= 2;
  p.lg_tpr = log2i(lanes);
  p.total = unsigned(rows * uint64_t(lanes));
}

}  // namespace spb
