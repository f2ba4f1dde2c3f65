// Host emulation of batched-col (col_kernel), batched-staged (staged_kernel), batched-csr-flat and batched-ell (csr_flat_kernel,
// ell_flat_kernel) and batched-split (split_kernel,
// its shuffles through the block barrier), and of batched-tile's quad transpose (quad_transpose), against a float64
// (batched-tile runs on the tensor cores, which have no host emulation: the GPU tests check it)
// reference, on mixed batches with empty rows, nnz-0 matrices, rectangular matrices, dim 1, nb not a
// power of two, outputs poisoned with NaN; every slot count / columns-per-thread / grid.y and column
// block W / vector width; f32, f64 and the CPU backend's portable f16 / bf16 (cuda/cpu/half16.hpp: 8-wide
// 16-byte vectors, f32 accumulation, within the precision's tolerance). A block's threads run as fibers on one OS thread, each to its
// next __syncthreads in turn (cuda_runtime.h here stands in for CUDA's). No GPU needed; the GPU tests
// (scripts/gpu-test.mjs) and compute-sanitizer remain the real check.
//   g++ -std=c++20 -O1 -pthread -I cuda/check/emu -w cuda/check/emu/spmm_emu.cpp -o /tmp/spmm_emu && /tmp/spmm_emu
#include <cmath>
#include <cstdio>
#include <random>
#include "../../spmm/col.cuh"
#include "../../spmm/col_stream.cuh"
#include "../../spmm/staged.cuh"
#include "../../spmm/split.cuh"
#include "../../spmm/quad_transpose.cuh"
#include "../../spmm/words16.cuh"
#include "../../cpu/half16.hpp"
using namespace spb;
using spb::cpu::BF16;
using spb::cpu::F16;

struct Batch {
  std::vector<int> m, k, row_off{0}, col_off{0}, rp{0}, ci;
  std::vector<double> val;
  bool uniform = false;
  bool stream_only = false;  // a batch for batched-col's streamed path alone (column-major, 16-bit / f32)
};
Batch make(std::mt19937& g, int batch, int dlo, int dhi, int nlo, int nhi, bool uniform = false, bool long_rows = true) {
  Batch b;
  b.uniform = uniform;
  for (int i = 0; i < batch; ++i) {
    int d = uniform ? dlo : dlo + g() % (dhi - dlo + 1);
    int kk = d;
    if (i % 5 == 3 && !uniform) kk = d + 3;  // rectangular
    b.m.push_back(d); b.k.push_back(kk);
    b.row_off.push_back(b.row_off.back() + d); b.col_off.push_back(b.col_off.back() + kk);
    int nz = uniform ? nlo : nlo + g() % (nhi - nlo + 1);
    for (int r = 0; r < d; ++r) {
      int n = (i % 7 == 2 && !uniform) ? 0 : (r % 4 == 1 ? 0 : std::min(nz + (r % 3 == 0 && long_rows ? 5 : 0), kk));  // nnz-0 matrices, empty rows, long rows
      std::vector<int> cols;
      while ((int)cols.size() < n) { int c = g() % kk; bool dup = false; for (int x : cols) dup |= x == c; if (!dup) cols.push_back(c); }
      for (int c : cols) { b.ci.push_back(c); b.val.push_back((g() % 2001) / 1000.0 - 1.0); }
      b.rp.push_back((int)b.ci.size());
    }
  }
  return b;
}

template <typename T>
int run_case(const Batch& b, int nb, bool colmajor, int& ncfg, bool flat_only = false) {
  if (b.stream_only && (!colmajor || sizeof(T) > 4)) return 0;
  if (flat_only && colmajor) return 0;
  std::mt19937 g(nb * 7 + colmajor);
  const int batch = b.m.size(), rows = b.row_off.back(), cols = b.col_off.back();
  std::vector<T> B(size_t(cols) * nb), C(size_t(rows) * nb);
  std::vector<double> Bd(B.size()), ref(C.size(), 0.0);  // row-major per matrix
  for (int i = 0; i < batch; ++i)
    for (int r = 0; r < b.k[i]; ++r)
      for (int j = 0; j < nb; ++j) {
        T x = T((g() % 2001) / 1000.0 - 1.0);
        Bd[size_t(b.col_off[i]) * nb + size_t(r) * nb + j] = double(x);
        B[size_t(b.col_off[i]) * nb + (colmajor ? size_t(j) * b.k[i] + r : size_t(r) * nb + j)] = x;
      }
  std::vector<T> val(b.val.begin(), b.val.end());
  for (int i = 0; i < batch; ++i)
    for (int r = 0; r < b.m[i]; ++r)
      for (int q = b.rp[b.row_off[i] + r]; q < b.rp[b.row_off[i] + r + 1]; ++q)
        for (int j = 0; j < nb; ++j) ref[size_t(b.row_off[i]) * nb + size_t(r) * nb + j] += double(val[q]) * Bd[size_t(b.col_off[i]) * nb + size_t(b.ci[q]) * nb + j];
  int bad = 0;
  auto check = [&](const char* what) {
    for (int i = 0; i < batch; ++i)
      for (int r = 0; r < b.m[i]; ++r)
        for (int j = 0; j < nb; ++j) {
          double got = C[size_t(b.row_off[i]) * nb + (colmajor ? size_t(j) * b.m[i] + r : size_t(r) * nb + j)];
          double want = ref[size_t(b.row_off[i]) * nb + size_t(r) * nb + j];
          if (!(std::fabs(got - want) <= std::max(1e-4, Acc<T>::tol) * (1 + std::fabs(want)))) {
            if (bad++ < 3) std::printf("  BAD %s: mat %d row %d col %d got %g want %g\n", what, i, r, j, got, want);
            return;
          }
        }
  };
  // per-row matrix index + descriptors (batched-col, batched-split column-major) and block-diagonal columns (split row-major)
  std::vector<int> rmat(std::max(rows, 1)), cig(b.ci.size());
  std::vector<int4> desc(std::max(batch, 1));
  for (int i = 0; i < batch; ++i) {
    desc[i] = make_int4(b.row_off[i], b.m[i], b.col_off[i], b.k[i]);
    for (int r = b.row_off[i]; r < b.row_off[i + 1]; ++r) {
      rmat[r] = i;
      for (int q = b.rp[r]; q < b.rp[r + 1]; ++q) cig[q] = b.ci[q] + b.col_off[i];
    }
  }
  // batched-csr-flat and batched-ell (row-major, block-diagonal columns) at vec_plan's width for nb (4- or 8-byte vectors
  // where nb is not a multiple of 16 bytes), csr-flat with one and two column chunks a lane, ELL at the batch's slots; a
  // grid of as many threads as the plan's and one of a block (the grid-stride loop)
  int longest = 0;  // the batch's longest row
  for (int r = 0; r < rows; ++r) longest = std::max(longest, b.rp[r + 1] - b.rp[r]);
  if (!colmajor) {
    int K = 0;
    for (int k : {1, 2, 3, 4, 6, 8}) if (!K && longest <= k) K = k;
    std::vector<int> ec(size_t(rows) * std::max(K, 1), -1);
    std::vector<T> ev(ec.size(), T(0));
    for (int r = 0; r < rows && K; ++r)
      for (int q = 0; q < b.rp[r + 1] - b.rp[r]; ++q) ec[size_t(r) * K + q] = cig[b.rp[r] + q], ev[size_t(r) * K + q] = val[b.rp[r] + q];
    auto flat = [&](auto vc) {
      constexpr int V = decltype(vc)::value;
      for (int ch : {1, 2})
        for (bool one_block : {false, true}) {
          const VecPlan p = vec_plan<T>(nb, rows, Layout::Row, ch, true);
          const unsigned blocks = one_block ? 1u : (p.total + 255) / 256;
          std::fill(C.begin(), C.end(), T(NAN));
          emu_launch(dim3(std::max(blocks, 1u)), dim3(256), false, [&] {
            (ch == 1 ? csr_flat_kernel<T, V, 1> : csr_flat_kernel<T, V, 2>)(b.rp.data(), cig.data(), val.data(), B.data(), C.data(), nb, p.lg_tpr, p.total);
          });
          char w[64]; std::snprintf(w, sizeof w, "csr-flat V=%d CH=%d%s", V, ch, one_block ? " one block" : "");
          check(w);
          ++ncfg;
          if (ch == 2 || !K) continue;
          std::fill(C.begin(), C.end(), T(NAN));
          emu_launch(dim3(std::max(blocks, 1u)), dim3(256), false, [&] {
            auto kern = K == 1 ? ell_flat_kernel<T, V, 1> : K == 2 ? ell_flat_kernel<T, V, 2> : K == 3 ? ell_flat_kernel<T, V, 3>
                      : K == 4 ? ell_flat_kernel<T, V, 4> : K == 6 ? ell_flat_kernel<T, V, 6> : ell_flat_kernel<T, V, 8>;
            kern(ec.data(), ev.data(), B.data(), C.data(), nb, p.lg_tpr, p.total);
          });
          std::snprintf(w, sizeof w, "ell K=%d V=%d%s", K, V, one_block ? " one block" : "");
          check(w);
          ++ncfg;
        }
    };
    with_vec_width<T>(vec_plan<T>(nb, rows, Layout::Row, 1, true).V, flat);
  }
  if (flat_only) return bad;
  if (colmajor) {
    // ELL slots (local columns) for K = 0, 3, 8 (where they fit)
    auto ell = [&](int K, std::vector<int>& ec, std::vector<T>& ev) {
      ec.assign(size_t(rows) * K, -1); ev.assign(size_t(rows) * K, T(0));
      for (int r = 0; r < rows; ++r) for (int q = 0; q < b.rp[r + 1] - b.rp[r]; ++q) { ec[size_t(r) * K + q] = b.ci[b.rp[r] + q]; ev[size_t(r) * K + q] = val[b.rp[r] + q]; }
    };
    bool even = true;  // every m_i even: batched-col's two rows a lane may run (below)
    for (int i = 0; i < batch; ++i) even = even && b.m[i] % 2 == 0;
    auto go = [&](auto kc, auto jcc, int gy) {
      constexpr int K = decltype(kc)::value, JC = decltype(jcc)::value;
      if (K && longest > K) return;
      std::vector<int> ec; std::vector<T> ev;
      if (K) ell(K, ec, ev);
      // B staged in shared memory: 1 (uniform batches, the matrix from the row) and 2 (any batch, the
      // block's matrices looked up; run on the uniform ones too)
      // a buffer as the plan sizes it: stage 1 col_stage_bytes, stage 2 the widest 256-row block's span
      // (col_stage_span), so that a chunk overrunning its buffer lands in the other one and shows
      int span = 0;
      for (int r0 = 0; r0 < rows; r0 += 256) {
        const int a = rmat[r0], z = rmat[std::min(r0 + 256, rows) - 1];
        span = std::max(span, b.col_off[z] + b.k[z] - b.col_off[a]);
      }
      for (int stage : {0, 1, 2})
        for (int db : {0, 1, 2}) {  // staged: the one-buffer kernel, the DB kernel with one buffer, with two (the next chunk copied while this one is computed)
          const bool two = db == 2;
          if ((stage == 1 && !b.uniform) || (db && !stage)) continue;
          const bool uni = b.uniform && stage != 2;  // um, uk passed: the uniform path
          const int buf = !two ? 0 : stage == 1 ? int(col_stage_bytes<T>(b.m[0], b.k[0], JC) / sizeof(T)) : span * JC;
          if (2 * size_t(buf) * sizeof(T) > sizeof emu_smem) continue;
          std::fill(C.begin(), C.end(), T(NAN));
          emu_launch(dim3((rows + 255) / 256, gy), dim3(256), stage > 0, [&] {
            auto kern = stage == 1 ? (db ? col_kernel<T, K, JC, 1, true> : col_kernel<T, K, JC, 1>)
                        : stage == 2 ? (db ? col_kernel<T, K, JC, 2, true> : col_kernel<T, K, JC, 2>) : col_kernel<T, K, JC, 0>;
            kern(rmat.data(), desc.data(), b.rp.data(), K ? ec.data() : b.ci.data(), K ? ev.data() : val.data(), B.data(), C.data(), nb, rows,
                 uni ? b.m[0] : 0, uni ? b.k[0] : 0, uni ? b.k[0] * JC : 0, uni ? b.k[0] * (nb % JC) : 0, buf);
          });
          char w[96]; std::snprintf(w, sizeof w, "col K=%d JC=%d gy=%d%s%s", K, JC, gy, stage == 1 ? " staged" : stage == 2 ? " staged (mixed)" : "", db == 2 ? ", two buffers" : db ? ", DB kernel, one buffer" : "");
          check(w);
          ++ncfg;
          // two rows a lane (R = 2): 16-bit, every m_i even, rows of at most 3, JC >= 2, not the mixed staging
          if constexpr (sizeof(T) == 2 && JC >= 2 && K >= 1 && K <= 3) {  // (the kernels the plan launches)
            if (!even || stage == 2 || db) continue;
            std::fill(C.begin(), C.end(), T(NAN));
            emu_launch(dim3((rows + 511) / 512, gy), dim3(256), stage > 0, [&] {
              auto kern = stage == 1 ? col_kernel<T, K, JC, 1, false, 2> : col_kernel<T, K, JC, 0, false, 2>;
              kern(rmat.data(), desc.data(), b.rp.data(), K ? ec.data() : b.ci.data(), K ? ev.data() : val.data(), B.data(), C.data(), nb, rows,
                   uni ? b.m[0] : 0, uni ? b.k[0] : 0, uni ? b.k[0] * JC : 0, uni ? b.k[0] * (nb % JC) : 0, 0);
            });
            std::snprintf(w, sizeof w, "col K=%d JC=%d gy=%d%s, two rows a lane", K, JC, gy, stage == 1 ? " staged" : "");
            check(w);
            ++ncfg;
          }
        }
    };
    // batched-col's streamed path (col_stream_kernel; uniform batches, ELL slots): one and two rows a lane, whole
    // matrices a strip or slices of one, chunks of B from one column to all (many chunks wrap the 4-buffer ring;
    // chunk starts off 16 bytes where k is odd), one warp for many items or parts of the columns, one-warp blocks
    // (the emulation's __syncwarp is the block's barrier)
    auto stream = [&](auto kc) {
      constexpr int K = decltype(kc)::value;
      if constexpr (sizeof(T) > 4) return;  // (f32 and 16-bit only)
      else {
        if (!b.uniform || longest > K) return;
        std::vector<int> ec; std::vector<T> ev;
        ell(K, ec, ev);
        for (int R : {1, 2}) {
          if (R == 2 && !even) continue;
          const std::pair<int, int64_t> shapes[] = {{1, 1}, {1, 100000}, {200, 5}, {200, 100000}, {kColStreamChunkBytes, 5}};  // (chunk bytes, warp slots)
          for (auto [chunk, slots] : shapes) {
            const ColStreamPlan p = col_stream_plan<T>(batch, b.m[0], b.k[0], nb, R, slots, chunk);
            if (size_t(kColStreamStages) * p.stage * sizeof(T) > sizeof emu_smem) continue;
            std::fill(C.begin(), C.end(), T(NAN));
            const int grid = int(std::min<int64_t>(p.nitems, slots));
            emu_launch(dim3(std::max(grid, 1)), dim3(32), true, [&] {
              auto kern = R == 2 ? col_stream_kernel<T, K, 2> : col_stream_kernel<T, K, 1>;
              kern(ec.data(), ev.data(), B.data(), C.data(), nb, b.m[0], b.k[0], batch, p, int64_t(B.size()));
            });
            char w[112]; std::snprintf(w, sizeof w, "col stream K=%d R=%d SS=%d J=%d parts=%d strips=%d warps=%d", K, R, p.SS, p.J, p.parts, p.nstrips, grid);
            check(w);
            ++ncfg;
          }
        }
      }
    };
    stream(std::integral_constant<int, 3>());
    stream(std::integral_constant<int, 8>());
    if (b.stream_only) return bad;
    for (int gy : {1, 3, 64}) {
      go(std::integral_constant<int, 0>(), std::integral_constant<int, 1>(), gy);
      go(std::integral_constant<int, 0>(), std::integral_constant<int, 4>(), gy);
      go(std::integral_constant<int, 8>(), std::integral_constant<int, 2>(), gy);
      go(std::integral_constant<int, 6>(), std::integral_constant<int, 1>(), gy);
      go(std::integral_constant<int, 3>(), std::integral_constant<int, 4>(), gy);
      go(std::integral_constant<int, 2>(), std::integral_constant<int, 2>(), gy);
    }
  }
  // split: S lanes a row and NV columns a lane (fewer, as many and more lanes than columns), blockIdx.y
  // over all column chunks or one walking them; row-major through the block-diagonal columns (16-byte
  // vectors where nb allows), column-major through the row's matrix (looked up, or computed in a uniform
  // batch); blockIdx.y over every chunk at 17 only. (Every batch and nb since the fibers made barriers cheap.)
  {
    auto go = [&](auto sc, auto nvc) {
      constexpr int S = decltype(sc)::value, NV = decltype(nvc)::value;
      const int vw = vec_width_for<T>(nb, NV, !colmajor);
      for (int gy : {1, nb == 17 ? (nb + NV - 1) / NV : 0})
        for (bool uni : {false, true}) {
          if (gy == 0 || (uni && !(colmajor && b.uniform))) continue;
          std::fill(C.begin(), C.end(), T(NAN));
          emu_launch(dim3((rows * S + 31) / 32, gy), dim3(32), true, [&] {  // one warp a block: its barrier is the cheap one
            auto kern = colmajor ? split_kernel<T, Layout::Col, S, NV> : split_kernel<T, Layout::Row, S, NV>;
            kern(b.rp.data(), colmajor ? b.ci.data() : cig.data(), val.data(), rmat.data(), desc.data(), B.data(), C.data(), nb, rows,
                 uni ? b.m[0] : 0, uni ? b.k[0] : 0, vw);
          });
          char w[80]; std::snprintf(w, sizeof w, "split S=%d NV=%d gy=%d vw=%d%s", S, NV, gy, vw, uni ? " uniform" : "");
          check(w);
          ++ncfg;
        }
    };
    go(std::integral_constant<int, 4>(), std::integral_constant<int, 16>());
    go(std::integral_constant<int, 8>(), std::integral_constant<int, 8>());
    go(std::integral_constant<int, 16>(), std::integral_constant<int, 4>());
    go(std::integral_constant<int, 32>(), std::integral_constant<int, 4>());
  }
  // staged: column-major with W in several sizes (the old kernel); both layouts with every vector width
  // (row-major: that divides nb) and groups of 1, 4 and 32 lanes a row (W = V 2^lg), all of a matrix's
  // records in shared memory or the fewest (runs of rows), whole matrices or 2 or 3 slices of rows
  const int vmax = 16 / sizeof(T);
  if (colmajor) {
    for (int W : {1, 12, nb}) {
      const int p = (nb + W - 1) / W;
      std::fill(C.begin(), C.end(), T(NAN));
      emu_launch(dim3(batch * p), dim3(kStagedThreads), true, [&] {
        staged_col_kernel<T>(b.row_off.data(), b.col_off.data(), b.rp.data(), b.ci.data(), val.data(), B.data(), C.data(), nb, W, p);
      });
      char w[64]; std::snprintf(w, sizeof w, "staged col W=%d", W);
      check(w);
      ++ncfg;
    }
  }
  std::vector<StagedNz<T>> nz(val.size() + 2, StagedNz<T>{T(0), 0});  // the last 16-byte copy may run past the end
  for (size_t q = 0; q < val.size(); ++q) nz[q] = StagedNz<T>{val[q], b.ci[q]};
  int kmax = 1, nzmax = 0, mmax = 1;
  for (int i = 0; i < batch; ++i)
    kmax = std::max(kmax, b.k[i]), mmax = std::max(mmax, b.m[i]), nzmax = std::max(nzmax, b.rp[b.row_off[i + 1]] - b.rp[b.row_off[i]]);
  constexpr int RV = 16 / sizeof(StagedNz<T>);
  auto row = [&](auto vc) {
    constexpr int V = decltype(vc)::value;
    if (V > vmax || (!colmajor && nb % V)) return;
    for (int lg : {0, 2, 5})
      for (int cap : {nzmax + RV, std::max(longest + 2 * RV, nzmax / 4)}) {  // all of a matrix's records, or runs of rows
        const int W = V << lg, p = (nb + W - 1) / W, rec_off = (kmax * W * int(sizeof(T)) + 15) / 16 * 16;
        if (cap < nzmax + RV && lg != 2) continue;  // runs of rows: one lane group size is enough (CI's time)
        if (rec_off + cap * sizeof(StagedNz<T>) > sizeof emu_smem) continue;
        const int passes = (mmax + (kStagedThreads >> lg) - 1) / (kStagedThreads >> lg);
        for (int S : {1, 2, 3}) {
          if (S > 1 && (lg != 5 || passes < 2)) continue;  // slices: several passes a matrix (32 lanes a row: 8 rows a pass)
          std::fill(C.begin(), C.end(), T(NAN));
          emu_launch(dim3(batch * p * S), dim3(kStagedThreads), true, [&] {
            if (colmajor)
              staged_row_kernel<T, Layout::Col, V>(b.row_off.data(), b.col_off.data(), b.rp.data(), nz.data(), B.data(), C.data(), nb, lg, p, rec_off, cap, S, kStagedSkewMask);
            else
              staged_row_kernel<T, Layout::Row, V>(b.row_off.data(), b.col_off.data(), b.rp.data(), nz.data(), B.data(), C.data(), nb, lg, p, rec_off, cap, S, kStagedSkewMask);
          });
          char w[80]; std::snprintf(w, sizeof w, "staged %s V=%d lanes=%d cap=%d slices=%d", colmajor ? "col" : "row", V, 1 << lg, cap, S);
          check(w);
          ++ncfg;
        }
      }
  };
  row(std::integral_constant<int, 1>());
  row(std::integral_constant<int, 2>());
  row(std::integral_constant<int, 4>());
  row(std::integral_constant<int, 8>());
  return bad;
}

// quad_transpose: lane l gives p[j] = 4 l + j and must get, in p[s], what lane 4 (l / 4) + s gave as p[l % 4].
int quad_case() {
  std::vector<uint32_t> got(32 * 4);
  emu_launch(dim3(1), dim3(32), true, [&] {
    const int l = int(threadIdx.x);
    uint32_t p[4];
    for (int j = 0; j < 4; ++j) p[j] = uint32_t(4 * l + j);
    quad_transpose(p, l & 3);
    for (int s = 0; s < 4; ++s) got[size_t(4 * l + s)] = p[s];
  });
  int bad = 0;
  for (int l = 0; l < 32; ++l)
    for (int s = 0; s < 4; ++s) bad += got[size_t(4 * l + s)] != uint32_t(4 * (4 * (l / 4) + s) + (l & 3));
  if (bad) std::printf("quad_transpose: %d of 128 words wrong\n", bad);
  return bad != 0;
}

// copy_lines16 (words16.cuh; batched-slab's MIS kernels), a block's threads run one after another (no barrier
// inside): every source start mod 8 elements, odd and even line strides, lines with data from none to all, line
// lengths from 0 to past the line, the last lines and words left out (nl, fill) or not; the lines must end as the
// values then zeros, with every other value of the buffer untouched.
template <int LINES, int WORDS, int T = 128>
int copy_lines_case(std::mt19937& g, int& runs) {
  constexpr int bp = 2 * WORDS + 8;
  std::vector<uint16_t> glob(LINES * size_t(2 * WORDS + 40) + 64);
  for (auto& x : glob) x = uint16_t(g() | 1u);  // never 0: a zero must come from the copy
  int bad = 0;
  for (int off = 0; off < 8; ++off)
    for (int ld : {2 * WORDS + 1, 2 * WORDS + 6, 2 * WORDS + 19, 2 * WORDS + 40})
      for (int nsrc : {0, 1, LINES / 2 + 1, LINES})
        for (int len : {0, 1, 2, WORDS, 2 * WORDS - 1, 2 * WORDS, 2 * WORDS + 3})
          for (int cut : {0, 1}) {  // 1: the last lines and words not written (nl, fill)
            const int nl = cut ? LINES - 3 : LINES, fill = cut ? 2 * WORDS - 6 : 2 * WORDS;
            std::vector<uint16_t> sm(LINES * size_t(bp) + 16, 0xA5A5);
            uint16_t* dst = sm.data() + 8;  // 16-byte aligned in the block's view (bp even)
            const uint16_t* src = glob.data() + 8 + off;
            emu_launch(dim3(1), dim3(T), false, [&] { copy_lines16<LINES, WORDS, T>(dst, bp, src, ld, nl, nsrc, fill, len); });
            ++runs;
            for (int l = 0; l < LINES && !bad; ++l)
              for (int x = 0; x < bp; ++x) {
                const uint16_t want = x >= fill || l >= nl ? 0xA5A5 : l < nsrc && x < len ? src[size_t(l) * ld + x] : 0;
                if (dst[size_t(l) * bp + x] != want) {
                  if (bad++ < 3)
                    std::printf("  BAD copy_lines16<%d, %d, %d> offset %d ld %d nsrc %d len %d cut %d: line %d value %d\n", LINES, WORDS, T, off, ld, nsrc, len, cut, l, x);
                  break;
                }
              }
            for (int x = 0; x < 8; ++x) bad += sm[size_t(x)] != 0xA5A5 || sm[size_t(LINES) * bp + 8 + x] != 0xA5A5;
          }
  return bad;
}
int words16_case() {
  std::mt19937 g(17);
  int runs = 0;
  // slab_kernel's calls, <LG, BN / 2, threads> for BN 32 / 64 / 128 at 8 and 12 warps; then shapes no kernel takes now
  // (<BN, 32, 256> and G = 8 lanes a line), which keep the line-to-lane mapping checked for every G it allows
  const int bad = copy_lines_case<64, 16, 256>(g, runs) + copy_lines_case<32, 32, 256>(g, runs) + copy_lines_case<32, 64, 256>(g, runs) +
                  copy_lines_case<96, 16, 384>(g, runs) + copy_lines_case<48, 32, 384>(g, runs) + copy_lines_case<48, 64, 384>(g, runs) +
                  copy_lines_case<64, 32, 256>(g, runs) + copy_lines_case<128, 32, 256>(g, runs) + copy_lines_case<64, 8, 128>(g, runs);
  std::printf("words16: %d line sets, %d wrong\n", runs, bad);
  return bad != 0;
}

// flat_issue16 + flat_tail16, then flat_unpack16 (words16.cuh; batched-slab's MIS kernels), threaded (the kernel's
// wait and barrier between them): a run of `lines` lines of len values each from source start mod 8 `off`, unpacked
// into lines of pitch bp (of `most` lines) padded with zeros to pad; each line must end as its len values, then zeros
// to pad, the lines from `lines` on and every other value of the buffer untouched. Source values are never 0 and the
// source vector ends at the run's last value. Returns the values wrong.
// The first 16-byte aligned value of v (the kernels' shared-memory buffers and runs start on 16 bytes).
uint16_t* aligned16(std::vector<uint16_t>& v) { return v.data() + (8 - (reinterpret_cast<uintptr_t>(v.data()) & 15u) / 2) % 8; }
template <int THREADS, int TPC>
int flat16_unpack_run(std::mt19937& g, int off, int len, int pad, int lines, int most, int bp) {
  const int n = lines * len;
  std::vector<uint16_t> glob(size_t(8 + off + n));
  for (auto& x : glob) x = uint16_t(g() | 1u);
  const uint16_t* src = glob.data() + 8 + off;  // (std::vector's data: 16-byte aligned)
  std::vector<uint16_t> F(size_t(most * len + 8 + 16) + 8, 0x5A5A), dst(size_t(most) * bp + 16, 0xA5A5);
  uint16_t* Fa = aligned16(F);
  uint16_t* d = aligned16(dst);
  emu_launch(dim3(1), dim3(THREADS), true, [&] {
    const int tid = int(threadIdx.x);
    const Flat16 fl = flat_issue16<THREADS>(Fa, src, n, tid);
    flat_tail16(Fa, fl);
    __syncthreads();
    flat_unpack16<THREADS, TPC>(d, bp, Fa, flat_delta16(src), len, pad, lines, tid);
  });
  int wrong = 0;
  for (int j = 0; j < most; ++j)
    for (int r = 0; r < bp; ++r) {
      const uint16_t want = j >= lines || r >= pad ? 0xA5A5 : r < len ? src[size_t(j) * len + r] : 0;
      wrong += d[size_t(j) * bp + r] != want;
    }
  return wrong;
}
int flat16_case() {
  std::mt19937 g(23);
  int runs = 0, bad = 0;
  // Column-major B tiles: wc columns of k values, padded to kend (16 threads a column, 8 warps).
  constexpr int THREADS = 256, BN = 32;
  for (int off = 0; off < 8; ++off)
    for (int k : {1, 2, 7, 8, 9, 15, 33, 94, 109, 128})
      for (int wc : {1, 5, BN}) {
        const int kend = (k + 15) / 16 * 16;
        const int wrong = flat16_unpack_run<THREADS, 16>(g, off, k, kend, wc, BN, kend + 8);
        ++runs;
        if (wrong && bad++ < 3) std::printf("  BAD flat16 offset %d k %d wc %d: %d values wrong\n", off, k, wc, wrong);
      }
  // Row-major B_i (slab_kernel's MIS 3): k rows of nb values (nb <= the tile's BN columns, not a multiple of 8), padded
  // to a whole vector, pitch BN + 8, BN / 8 threads a row; 8 and 12 warps.
  for (int off = 0; off < 8; ++off)
    for (int nb : {1, 3, 6, 12, 17, 30, 42, 63, 78, 100, 127})
      for (int k : {1, 5, 16, 47}) {
        const int pad = (nb + 7) & ~7;
        int wrong = 0;
        if (nb <= 32) wrong += flat16_unpack_run<256, 4>(g, off, nb, pad, k, 48, 40) + flat16_unpack_run<384, 4>(g, off, nb, pad, k, 48, 40);
        if (nb <= 64) wrong += flat16_unpack_run<256, 8>(g, off, nb, pad, k, 48, 72) + flat16_unpack_run<384, 8>(g, off, nb, pad, k, 48, 72);
        wrong += flat16_unpack_run<256, 16>(g, off, nb, pad, k, 48, 136) + flat16_unpack_run<384, 16>(g, off, nb, pad, k, 48, 136);
        runs += nb <= 32 ? 6 : nb <= 64 ? 4 : 2;
        if (wrong && bad++ < 3) std::printf("  BAD flat16 rows offset %d nb %d k %d: %d values wrong\n", off, nb, k, wrong);
      }
  // flat_store16: runs of n values (0, partial vectors, several vectors) to every destination start mod 8; the run
  // must land exactly, every value around it untouched
  for (int off = 0; off < 8; ++off)
    for (int n : {0, 1, 5, 8, 9, 23, 94 * 3, 1000}) {
      std::vector<uint16_t> F(size_t(n) + 32), out(size_t(n) + 48, 0xA5A5);
      uint16_t* Fa = aligned16(F);
      uint16_t* o = aligned16(out) + 8 + off;
      const int delta = flat_delta16(o);
      for (int i = 0; i < n; ++i) Fa[delta + i] = uint16_t(g() | 1u);
      emu_launch(dim3(1), dim3(THREADS), false, [&] { flat_store16<THREADS>(o, Fa, n, int(threadIdx.x)); });
      ++runs;
      int wrong = 0;
      for (size_t i = 0; i < out.size(); ++i) {
        const std::ptrdiff_t at = out.data() + i - o;
        wrong += out[i] != (at >= 0 && at < n ? Fa[delta + at] : 0xA5A5);
      }
      if (wrong && bad++ < 3) std::printf("  BAD flat_store16 offset %d n %d: %d values wrong\n", off, n, wrong);
    }
  std::printf("flat16: %d runs, %d wrong\n", runs, bad);
  return bad != 0;
}

int main() {
  std::mt19937 g(5);
  int bad = quad_case() + words16_case() + flat16_case(), n = 1, runs = 0;  // runs: kernel configurations checked over all cases
  std::vector<Batch> batches = {make(g, 9, 1, 40, 0, 5), make(g, 4, 1, 1, 1, 1), make(g, 3, 30, 70, 10, 20), make(g, 1, 200, 200, 3, 3),
                                make(g, 6, 33, 33, 9, 9, true), make(g, 11, 48, 48, 3, 3, true), make(g, 8, 64, 64, 1, 3, false, false),
                                make(g, 9, 40, 40, 3, 3, true, false)};
  for (auto [n, d] : {std::pair<int, int>{7, 10}, {5, 21}, {2, 70}, {1, 150}}) {
    batches.push_back(make(g, n, d, d, d == 70 ? 3 : 2, d == 70 ? 3 : 2, true, false));
    batches.back().stream_only = true;
  }
  // the uniform two: batched-col's staged B (33: scalar copies; 48: 16-byte copies, blocks that start inside a matrix);
  // the last two, m_i all even and rows of at most 3 (nnz-0 matrices, empty rows, some k_i = m_i + 3; a uniform one):
  // batched-col's two rows a lane, unstaged and staged; then uniform batches for batched-col's streamed path alone: d10 (several
  // matrices a warp), d21 (odd: one row a lane, chunks off 16 bytes, B's last 16-byte block partial), d70 (two
  // strips a warp), d150 (two items a matrix of two strips each, the last strip part-filled)
  for (auto& b : batches)
    for (int nb : {1, 3, 8, 17, 64})
      for (bool col : {false, true}) {
        bad += run_case<float>(b, nb, col, runs);
        bad += run_case<double>(b, nb, col, runs);
        // 16-bit: an 8-wide vector (nb 8) and the scalar path (17; f32/f64 cover the loops of nb 64), f16 and bf16
        if (nb == 8 || nb == 17) bad += run_case<F16>(b, nb, col, runs) + run_case<BF16>(b, nb, col, runs);
        n++;
      }
  // batched-csr-flat's and batched-ell's vectors of 4 or 8 bytes (nb not a multiple of 16 bytes), every precision
  for (auto& b : batches)
    for (int nb : {6, 12, 20}) {
      bad += run_case<float>(b, nb, false, runs, true) + run_case<double>(b, nb, false, runs, true);
      bad += run_case<F16>(b, nb, false, runs, true) + run_case<BF16>(b, nb, false, runs, true);
      n++;
    }
  std::printf("%d cases (%d kernel runs checked), %d bad\n", n, runs, bad);
  return bad != 0;
}
