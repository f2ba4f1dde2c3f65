// CPU reference SpMM for a batch: C_i = A_i * B_i, B_i dense k_i x nb drawn from the seed.
// Methods: cpu-csr (OpenMP over all rows of the batch, float64 accumulation) and cpu-coo (COO
// scatter in the precision under test, f32 for f16/bf16 as the GPU kernels do, OpenMP over matrices).
// Both are verified against ref_spmm; they are the oracle and the no-GPU backend, never GPU figures.
// f16 / bf16 are the portable 16-bit types of half16.hpp.
#pragma once
#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>
#include "cpu_common.hpp"
#include "half16.hpp"

namespace spb::cpu {

struct SpmmOptions {
  Common common;
  std::vector<long long> nbs;
  std::string mode, layout;
  uint64_t seed = 1;
  bool index_b = false;  // --b-fill index: B[k][j] = (k*nb + j) % 7 - 3, small exact integers for hand-checked tests
  bool dump = false;     // --dump-output: a log line with every C (tests)
  bool fault = false;    // --inject-fault: cpu-csr leaves the last row of each C unwritten (tests the poison check)
};

inline const std::vector<std::string>& spmm_methods() {
  static const std::vector<std::string> m{"cpu-csr", "cpu-coo"};
  return m;
}

template <typename T>
struct SpmmCase {
  std::vector<MatT<T>> mats;
  std::vector<int64_t> row_start;     // first global row of each matrix (size batch + 1)
  std::vector<int64_t> b_off, c_off;  // element offsets of B_i and C_i (size batch + 1)
  std::vector<T> B;                   // all B_i, stored in the requested layout
  std::vector<double> Bd;             // the same values, row-major, for the reference
  int64_t nb = 0;
  bool col_major = false;
  // Element index of (r, j) in an rows x nb block stored in the case's layout.
  int64_t at(int64_t r, int64_t j, int64_t rows) const { return col_major ? j * rows + r : r * nb + j; }
};

template <typename T>
SpmmCase<T> make_spmm_case(const std::vector<Csr>& batch, int64_t nb, bool col_major, uint64_t seed, bool index_b) {
  SpmmCase<T> c;
  c.nb = nb; c.col_major = col_major;
  c.row_start.assign(1, 0); c.b_off.assign(1, 0); c.c_off.assign(1, 0);
  for (const Csr& a : batch) {
    c.mats.push_back(to_mat<T>(a));
    c.row_start.push_back(c.row_start.back() + a.rows);
    c.b_off.push_back(c.b_off.back() + a.cols * nb);
    c.c_off.push_back(c.c_off.back() + a.rows * nb);
  }
  // B is a fixed function of (seed, nb): same values whatever the layout or precision order.
  SplitMix rng(seed * 0x100000001B3ull + uint64_t(nb));
  c.B.resize(size_t(c.b_off.back()));
  c.Bd.resize(size_t(c.b_off.back()));
  for (size_t i = 0; i < c.mats.size(); ++i) {
    const int64_t k = c.mats[i].cols;
    for (int64_t r = 0; r < k; ++r)
      for (int64_t j = 0; j < nb; ++j) {
        T v = index_b ? T(double((r * nb + j) % 7) - 3.0) : T(rng.uniform_pm1());
        c.Bd[size_t(c.b_off[i] + r * nb + j)] = double(v);
        c.B[size_t(c.b_off[i] + c.at(r, j, k))] = v;
      }
  }
  return c;
}

// cpu-csr: every row of the batch is an independent task; a per-thread float64 row accumulator.
template <typename T>
void spmm_csr(const SpmmCase<T>& c, T* C, bool fault = false) {
  const int64_t total = c.row_start.back(), nb = c.nb;
#pragma omp parallel
  {
    std::vector<double> acc(static_cast<size_t>(nb));
#pragma omp for schedule(dynamic, 64)
    for (int64_t g = 0; g < total; ++g) {
      const size_t i = size_t(std::upper_bound(c.row_start.begin(), c.row_start.end(), g) - c.row_start.begin() - 1);
      const MatT<T>& a = c.mats[i];
      const int64_t r = g - c.row_start[i];
      if (fault && r == a.rows - 1) continue;
      const T* B = c.B.data() + c.b_off[i];
      std::fill(acc.begin(), acc.end(), 0.0);
      for (int32_t p = a.row_ptr[r]; p < a.row_ptr[r + 1]; ++p) {
        const double v = double(a.val[p]);
        const int64_t col = a.col_idx[p];
        for (int64_t j = 0; j < nb; ++j) acc[j] += v * double(B[c.at(col, j, a.cols)]);
      }
      T* Ci = C + c.c_off[i];
      for (int64_t j = 0; j < nb; ++j) Ci[c.at(r, j, a.rows)] = T(acc[j]);
    }
  }
}

// COO form of the batch (row indices expanded), built by cpu-coo before timing.
struct CooRows {
  std::vector<std::vector<int32_t>> rows;
};

// cpu-coo: zero C, then scatter val * B[col][:] into C[row][:] in acc_t<T> (T itself for f32/f64;
// f16/bf16: into a float copy of C_i, rounded to T once at the end); no order assumed on entries.
template <typename T>
void spmm_coo(const SpmmCase<T>& c, const CooRows& coo, T* C) {
  using A = acc_t<T>;
  constexpr bool direct = std::is_same_v<A, T>;
  const int64_t batch = int64_t(c.mats.size()), nb = c.nb;
#pragma omp parallel
  {
    std::vector<A> sums;
#pragma omp for schedule(dynamic, 4)
    for (int64_t i = 0; i < batch; ++i) {
      const MatT<T>& a = c.mats[size_t(i)];
      const T* B = c.B.data() + c.b_off[i];
      T* Ci = C + c.c_off[i];
      A* acc;
      if constexpr (direct) acc = Ci;
      else { sums.resize(size_t(a.rows * nb)); acc = sums.data(); }
      std::fill(acc, acc + a.rows * nb, A(0));
      const std::vector<int32_t>& rows = coo.rows[size_t(i)];
      for (size_t p = 0; p < a.val.size(); ++p) {
        const A v = widen(a.val[p]);
        const int64_t row = rows[p], col = a.col_idx[p];
        for (int64_t j = 0; j < nb; ++j) acc[c.at(row, j, a.rows)] += v * widen(B[c.at(col, j, a.cols)]);
      }
      if constexpr (!direct) std::transform(acc, acc + a.rows * nb, Ci, [](A x) { return narrow<T>(x); });
    }
  }
}

// Float64 reference of the whole batch (row-major) and the per-output sum|a*b| bound.
struct SpmmRef {
  std::vector<double> C, absC;
};

template <typename T>
SpmmRef spmm_reference(const std::vector<Csr>& batch, const SpmmCase<T>& c) {
  SpmmRef ref;
  ref.C.resize(size_t(c.c_off.back()));
  ref.absC.resize(size_t(c.c_off.back()));
  for (size_t i = 0; i < batch.size(); ++i) {
    Csr a = batch[i];
    for (double& v : a.values) v = double(T(v));
    ref_spmm(a, c.Bd.data() + c.b_off[i], c.nb, ref.C.data() + c.c_off[i], ref.absC.data() + c.c_off[i]);
  }
  return ref;
}

// Compares every C_i (in the case's layout) with the reference; reports the worst matrix/row/column.
template <typename T>
void verify_spmm(Result& r, const SpmmCase<T>& c, const SpmmRef& ref, const std::vector<T>& C, double tol) {
  ErrReport worst;
  size_t worst_mat = 0;
  std::vector<T> rowmajor;
  for (size_t i = 0; i < c.mats.size(); ++i) {
    const int64_t rows = c.mats[i].rows, n = rows * c.nb;
    rowmajor.resize(size_t(n));
    for (int64_t rr = 0; rr < rows; ++rr)
      for (int64_t j = 0; j < c.nb; ++j) rowmajor[size_t(rr * c.nb + j)] = C[size_t(c.c_off[i] + c.at(rr, j, rows))];
    ErrReport e = max_norm_err(rowmajor.data(), ref.C.data() + c.c_off[i], ref.absC.data() + c.c_off[i], n, Acc<T>::floor);
    if (!e.finite || e.max_err > worst.max_err || worst.where < 0) { worst = e; worst_mat = i; }
    if (!e.finite) break;
  }
  std::string where = "matrix " + std::to_string(worst_mat);
  if (worst.where >= 0) where += " row " + std::to_string(worst.where / c.nb) + " column " + std::to_string(worst.where % c.nb);
  judge(r, worst, tol, where);
}

// One log line per matrix with its C as nested JSON arrays (row-major), for hand-checked tests.
template <typename T>
void dump_spmm(const std::string& method, const SpmmCase<T>& c, const std::vector<T>& C) {
  for (size_t i = 0; i < c.mats.size(); ++i) {
    const int64_t rows = c.mats[i].rows;
    std::string s = "[";
    for (int64_t r = 0; r < rows; ++r) {
      s += r ? ",[" : "[";
      for (int64_t j = 0; j < c.nb; ++j) s += (j ? "," : "") + jnum(double(C[size_t(c.c_off[i] + c.at(r, j, rows))]));
      s += "]";
    }
    emit_log("info", method + " nb=" + std::to_string(c.nb) + " matrix " + std::to_string(i) + " C=" + s + "]");
  }
}

template <typename T>
void run_spmm_nb(const std::vector<Csr>& batch, const SpmmOptions& o, int64_t nb, long long& done) {
  SpmmCase<T> c = make_spmm_case<T>(batch, nb, o.layout == "col", o.seed, o.index_b);
  const SpmmRef ref = spmm_reference(batch, c);
  int64_t nnz = 0;
  double a_bytes_csr = 0, a_bytes_coo = 0;
  for (const MatT<T>& a : c.mats) {
    nnz += int64_t(a.val.size());
    a_bytes_csr += csr_bytes(a.rows, int64_t(a.val.size()), sizeof(T));
    a_bytes_coo += double(a.val.size()) * double(8 + sizeof(T));
  }
  const double bc_bytes = double(c.b_off.back() + c.c_off.back()) * double(sizeof(T));
  const size_t c_elems = size_t(c.c_off.back());
  const double tol = Acc<T>::tol;

  for (const std::string& method : o.common.methods) {
    Result r;
    r.op = "spmm"; r.method = method;
    r.params = {{"nb", jnum(double(nb))}, {"precision", jstr(o.common.precision)}, {"mode", jstr(o.mode)},
                {"layout", jstr(o.layout)}, {"batch", jnum(double(batch.size()))}};
    r.flops = 2.0 * double(nnz) * double(nb);
    r.tol = tol;
    r.info["threads"] = threads();
    run_guarded(r, [&](Result& res) {
      std::vector<T> C(c_elems);
      auto poison = [&] { std::fill(C.begin(), C.end(), T(std::numeric_limits<double>::quiet_NaN())); };
      if (method == "cpu-csr") {
        res.bytes_moved = a_bytes_csr + bc_bytes;
        res.peak_mem_bytes = double(c_elems * sizeof(T) + size_t(threads()) * size_t(nb) * sizeof(double));
        res.samples_ms = time_samples(o.common, poison, [&](bool) { spmm_csr(c, C.data(), o.fault); }, res);
      } else {
        CooRows coo;
        int64_t row_bytes = 0;
        for (const MatT<T>& a : c.mats) {
          std::vector<int32_t> rows(a.val.size());
          for (int32_t rr = 0; rr < a.rows; ++rr)
            for (int32_t p = a.row_ptr[rr]; p < a.row_ptr[rr + 1]; ++p) rows[size_t(p)] = rr;
          row_bytes += int64_t(rows.size()) * 4;
          coo.rows.push_back(std::move(rows));
        }
        res.bytes_moved = a_bytes_coo + bc_bytes;
        res.peak_mem_bytes = double(c_elems * sizeof(T) + size_t(row_bytes));
        res.samples_ms = time_samples(o.common, poison, [&](bool) { spmm_coo(c, coo, C.data()); }, res);
      }
      verify_spmm(res, c, ref, C, tol);
      if (o.dump) dump_spmm(method, c, C);
    });
    emit_progress(++done, (long long)(o.nbs.size() * o.common.methods.size()), method + " nb=" + std::to_string(nb));
  }
}

inline void run_spmm(const std::vector<Csr>& batch, const SpmmOptions& o) {
  long long done = 0;  // progress lines: one per (nb, method) finished
  for (long long nb : o.nbs) {
    if (o.common.precision == "f32") run_spmm_nb<float>(batch, o, nb, done);
    else if (o.common.precision == "f16") run_spmm_nb<F16>(batch, o, nb, done);
    else if (o.common.precision == "bf16") run_spmm_nb<BF16>(batch, o, nb, done);
    else run_spmm_nb<double>(batch, o, nb, done);
  }
}

}  // namespace spb::cpu
