// The SpMM batch as every SpMM executable builds it from the .spb input and the seed: stacked CSR,
// COO in a seeded random order within each matrix, a seeded random B in the requested layout, and the
// float64 reference with its check. Plain C++17 (no CUDA), so host code of any driver can use it.
//
// The spmm driver (cuda/drivers/spmm_cuda.cu, which copies it into its pinned HostBatch) and the plugin
// runner (cuda/drivers/plugin_spmm.cu) both build their batch, reference and check here, so a user's
// kernel sees the same A, COO order and B as the built-in methods of the same seed.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>
#include "args.hpp"
#include "binfmt.hpp"
#include "reference.hpp"

namespace spb {

enum class BatchLayout { Row, Col };

// What both SpMM executables are told: the batch file and its cases (n_B values, precision, timed
// region, layout), the runs and the seed.
struct SpmmRunOptions {
  std::string input, precision = "f32", mode = "kernel", layout = "row";
  std::vector<long long> nbs;
  int warmup = 5;  // samples: --samples N|auto and its limits are the Measurer's (cuda/common/measure.cuh)
  uint64_t seed = 1;
};

// Reads them from the command line; a bad value is a usage error (std::invalid_argument) naming the option.
inline void parse_spmm_run(const Args& a, SpmmRunOptions& o) {
  o.input = a.need("input");
  o.nbs = a.ints("nb", "64");
  if (o.nbs.empty()) throw std::invalid_argument("--nb needs at least one value");
  for (long long nb : o.nbs) if (nb < 1 || nb > (1 << 20)) throw std::invalid_argument("--nb values must be in 1..1048576, got " + std::to_string(nb));
  o.precision = a.get("precision", "f32");
  if (o.precision != "f32" && o.precision != "f64" && o.precision != "f16" && o.precision != "bf16")
    throw std::invalid_argument("--precision must be f32, f64, f16 or bf16, got '" + o.precision + "'");
  o.mode = a.get("mode", "kernel");
  if (o.mode != "kernel" && o.mode != "e2e" && o.mode != "graph") throw std::invalid_argument("--mode must be kernel, e2e or graph, got '" + o.mode + "'");
  o.layout = a.get("layout", "row");
  if (o.layout != "row" && o.layout != "col") throw std::invalid_argument("--layout must be row or col, got '" + o.layout + "'");
  o.warmup = int(a.integer("warmup", 5));
  if (o.warmup < 0) throw std::invalid_argument("--warmup must be >= 0");
  o.seed = uint64_t(a.integer("seed", 1));
}

// Uniform in [-1, 1] from a 64-bit generator; defined bit-for-bit (no std::uniform_real_distribution).
inline double batch_unit(std::mt19937_64& g) { return double(g() >> 11) * (2.0 / 9007199254740992.0) - 1.0; }

template <typename T>
struct SpmmBatchData {
  int batch = 0, nb = 0, max_m = 0, max_k = 0, max_nnz = 0;
  int64_t total_rows = 0, total_cols = 0, total_nnz = 0;
  BatchLayout layout = BatchLayout::Row;
  bool uniform = true;  // same m, k and nnz for every matrix
  std::vector<int> m, k, nnz;
  std::vector<int> row_off, col_off, nnz_off;  // batch + 1 prefix sums
  std::vector<int> rp;                         // stacked CSR row pointer (total_rows + 1), global nonzero index
  std::vector<int> ci;                         // local columns
  std::vector<T> val;
  std::vector<int> coo_r, coo_c;               // COO, seeded order within each matrix
  std::vector<T> coo_v;
  std::vector<T> B;                            // each B_i (k_i x nb) stacked, in `layout`
  std::vector<double> b_ref;                   // the same B, row-major, as double
};

// The batch's A with values rounded to T (the reference sees exactly what the GPU sees).
template <typename T>
std::vector<Csr> rounded_batch(const std::vector<Csr>& mats) {
  std::vector<Csr> out = mats;
  for (Csr& c : out) for (double& x : c.values) x = double(T(x));
  return out;
}

template <typename T>
SpmmBatchData<T> build_spmm_batch(const std::vector<Csr>& A, int nb, BatchLayout layout, uint64_t seed) {
  SpmmBatchData<T> h;
  h.batch = int(A.size()); h.nb = nb; h.layout = layout;
  for (const Csr& c : A) {
    h.m.push_back(int(c.rows)); h.k.push_back(int(c.cols)); h.nnz.push_back(int(c.nnz()));
    h.total_rows += c.rows; h.total_cols += c.cols; h.total_nnz += c.nnz();
  }
  if (h.total_nnz >= (1ll << 31) || h.total_rows >= (1ll << 31) || h.total_cols * nb >= (1ll << 40))
    throw std::invalid_argument("batch too large for 32-bit indices");
  h.max_m = h.batch ? *std::max_element(h.m.begin(), h.m.end()) : 0;
  h.max_k = h.batch ? *std::max_element(h.k.begin(), h.k.end()) : 0;
  h.max_nnz = h.batch ? *std::max_element(h.nnz.begin(), h.nnz.end()) : 0;
  for (int i = 1; i < h.batch; ++i) h.uniform = h.uniform && h.m[i] == h.m[0] && h.k[i] == h.k[0] && h.nnz[i] == h.nnz[0];
  h.row_off.assign(size_t(h.batch) + 1, 0); h.col_off.assign(size_t(h.batch) + 1, 0); h.nnz_off.assign(size_t(h.batch) + 1, 0);
  for (int i = 0; i < h.batch; ++i) {
    h.row_off[i + 1] = h.row_off[i] + h.m[i]; h.col_off[i + 1] = h.col_off[i] + h.k[i]; h.nnz_off[i + 1] = h.nnz_off[i] + h.nnz[i];
  }
  h.rp.assign(size_t(h.total_rows) + 1, 0); h.ci.resize(size_t(h.total_nnz)); h.val.resize(size_t(h.total_nnz));
  h.coo_r.resize(size_t(h.total_nnz)); h.coo_c.resize(size_t(h.total_nnz)); h.coo_v.resize(size_t(h.total_nnz));
  std::mt19937_64 shuf(seed * 0x9E3779B97F4A7C15ull + 17);
  std::vector<int> perm;
  for (int i = 0; i < h.batch; ++i) {
    const Csr& c = A[size_t(i)];
    const int z0 = h.nnz_off[i];
    for (int r = 0; r < h.m[i]; ++r) h.rp[size_t(h.row_off[i] + r + 1)] = z0 + int(c.row_ptr[r + 1]);
    perm.resize(size_t(h.nnz[i]));
    for (int q = 0; q < h.nnz[i]; ++q) { perm[q] = q; h.ci[size_t(z0 + q)] = int(c.col_idx[q]); h.val[size_t(z0 + q)] = T(c.values[q]); }
    for (int q = h.nnz[i] - 1; q > 0; --q) std::swap(perm[q], perm[shuf() % uint64_t(q + 1)]);  // Fisher-Yates
    for (int r = 0; r < h.m[i]; ++r)
      for (int64_t q = c.row_ptr[r]; q < c.row_ptr[r + 1]; ++q) {
        const size_t dst = size_t(z0 + perm[size_t(q)]);
        h.coo_r[dst] = r; h.coo_c[dst] = int(c.col_idx[q]); h.coo_v[dst] = T(c.values[q]);
      }
  }
  // B: element (r, j) of B_i gets the same value whatever the layout.
  h.B.assign(size_t(h.total_cols) * nb, T(0));
  h.b_ref.assign(size_t(h.total_cols) * nb, 0.0);
  std::mt19937_64 g(seed * 1000003ull + uint64_t(nb));
  for (int i = 0; i < h.batch; ++i)
    for (int r = 0; r < h.k[i]; ++r)
      for (int j = 0; j < nb; ++j) {
        const T x = T(batch_unit(g));
        const size_t base = size_t(h.col_off[i]) * nb;
        h.b_ref[base + size_t(r) * nb + j] = double(x);
        h.B[base + size_t(layout == BatchLayout::Row ? int64_t(r) * nb + j : int64_t(j) * h.k[i] + r)] = x;
      }
  return h;
}

struct SpmmReference {
  std::vector<double> c, abs;  // each C_i row-major, stacked
};

template <typename T>
SpmmReference spmm_reference(const std::vector<Csr>& A, const SpmmBatchData<T>& h) {
  SpmmReference R;
  R.c.resize(size_t(h.total_rows) * h.nb); R.abs.resize(R.c.size());
  for (int i = 0; i < h.batch; ++i) {
    const size_t co = size_t(h.row_off[i]) * h.nb;
    ref_spmm(A[size_t(i)], h.b_ref.data() + size_t(h.col_off[i]) * h.nb, h.nb, R.c.data() + co, R.abs.data() + co);
  }
  return R;
}

struct SpmmCheck {
  bool passed = false;
  double max_err = 0;
  std::string detail;
};

// Compares every C_i (host copy `got` of the stacked C, in the batch's layout) with the reference.
template <typename T>
SpmmCheck check_spmm(const std::vector<T>& got, const SpmmBatchData<T>& h, const SpmmReference& R, double tol, const char* when) {
  std::vector<T> row;
  SpmmCheck out;
  out.passed = true;
  for (int i = 0; i < h.batch; ++i) {
    const size_t co = size_t(h.row_off[i]) * h.nb, n = size_t(h.m[i]) * h.nb;
    row.resize(n);
    for (int r = 0; r < h.m[i]; ++r)
      for (int j = 0; j < h.nb; ++j)
        row[size_t(r) * h.nb + j] = got[co + size_t(h.layout == BatchLayout::Row ? int64_t(r) * h.nb + j : int64_t(j) * h.m[i] + r)];
    ErrReport e = max_norm_err(row.data(), R.c.data() + co, R.abs.data() + co, int64_t(n), Acc<T>::floor);
    const bool bad = !e.finite || e.max_err > tol;
    if (e.finite) out.max_err = std::max(out.max_err, e.max_err);
    if (bad && out.passed) {
      out.passed = false;
      char buf[256];
      std::snprintf(buf, sizeof buf, "%s: matrix %d row %lld col %lld: got %.9g, want %.9g%s", when, i, (long long)(e.where / h.nb),
                    (long long)(e.where % h.nb), e.got, e.want, e.finite ? "" : " (not finite: unwritten or overflow)");
      out.detail = buf;
      if (!e.finite) out.max_err = std::numeric_limits<double>::infinity();
    }
  }
  return out;
}

}  // namespace spb
