// CPU reference SpGEMM: cpu-gustavson, row-parallel Gustavson in the GPU's two phases (count the
// distinct columns of every row, prefix-sum, allocate C once, then fill with sorted columns).
// Float64 accumulation, values stored in T; verified against ref_spgemm (same pattern, values in tol).
#pragma once
#include <algorithm>
#include <string>
#include <vector>
#include "cpu_common.hpp"
#include "../common/spgemm_check.hpp"

namespace spb::cpu {

struct SpgemmOptions {
  Common common;
  bool breakdown = false, explain = false;
  ReferenceSpec reference;  // --reference cpu|none|rows:N, --reference-cache DIR, --verify-seed S
  bool dump = false;  // --dump-output: a log line with C in CSR (tests)
  bool fault = false; // --inject-fault: the last value of the row with the most products is off by one (tests the check)
};

inline const std::vector<std::string>& spgemm_methods() {
  static const std::vector<std::string> m{"cpu-gustavson"};
  return m;
}

// Phase 1: distinct output columns of every row (a per-thread marker array over B's columns).
template <typename T>
void gustavson_count(const MatT<T>& A, const MatT<T>& B, std::vector<int64_t>& cnt) {
#pragma omp parallel
  {
    std::vector<int32_t> mark(size_t(B.cols), -1);
#pragma omp for schedule(dynamic, 256)
    for (int32_t r = 0; r < A.rows; ++r) {
      int64_t n = 0;
      for (int32_t p = A.row_ptr[r]; p < A.row_ptr[r + 1]; ++p) {
        const int32_t a = A.col_idx[p];
        for (int32_t q = B.row_ptr[a]; q < B.row_ptr[a + 1]; ++q) {
          const int32_t c = B.col_idx[q];
          if (mark[size_t(c)] != r) { mark[size_t(c)] = r; ++n; }
        }
      }
      cnt[size_t(r)] = n;
    }
  }
}

// Phase 2: accumulate each row in a dense float64 row, then write its columns sorted.
template <typename T>
void gustavson_fill(const MatT<T>& A, const MatT<T>& B, MatT<T>& C) {
#pragma omp parallel
  {
    std::vector<int32_t> mark(size_t(B.cols), -1), cols;
    std::vector<double> acc(size_t(B.cols));
#pragma omp for schedule(dynamic, 256)
    for (int32_t r = 0; r < A.rows; ++r) {
      cols.clear();
      for (int32_t p = A.row_ptr[r]; p < A.row_ptr[r + 1]; ++p) {
        const int32_t a = A.col_idx[p];
        const double av = double(A.val[size_t(p)]);
        for (int32_t q = B.row_ptr[a]; q < B.row_ptr[a + 1]; ++q) {
          const int32_t c = B.col_idx[q];
          if (mark[size_t(c)] != r) { mark[size_t(c)] = r; acc[size_t(c)] = 0; cols.push_back(c); }
          acc[size_t(c)] += av * double(B.val[size_t(q)]);
        }
      }
      std::sort(cols.begin(), cols.end());
      int32_t out = C.row_ptr[r];
      for (int32_t c : cols) { C.col_idx[size_t(out)] = c; C.val[size_t(out)] = T(acc[size_t(c)]); ++out; }
    }
  }
}

// The whole method; C keeps its buffers between samples so the caller can poison them untimed.
// Returns the phase times of this call.
template <typename T>
std::map<std::string, double> gustavson(const MatT<T>& A, const MatT<T>& B, MatT<T>& C, std::vector<int64_t>& cnt) {
  std::map<std::string, double> t;
  auto t0 = std::chrono::steady_clock::now();
  cnt.resize(size_t(A.rows));
  gustavson_count(A, B, cnt);
  t["count"] = ms_since(t0);
  t0 = std::chrono::steady_clock::now();
  C.rows = A.rows; C.cols = B.cols;
  C.row_ptr.resize(size_t(A.rows) + 1);
  int64_t nnz = 0;
  C.row_ptr[0] = 0;
  for (int32_t r = 0; r < A.rows; ++r) {
    nnz += cnt[size_t(r)];
    if (nnz > INT32_MAX) throw std::runtime_error("nnz(C) exceeds the int32 indices of the CPU backend");
    C.row_ptr[size_t(r) + 1] = int32_t(nnz);
  }
  C.col_idx.resize(size_t(nnz));
  C.val.resize(size_t(nnz));
  t["scan+alloc"] = ms_since(t0);
  t0 = std::chrono::steady_clock::now();
  gustavson_fill(A, B, C);
  t["fill"] = ms_since(t0);
  return t;
}

// Same pattern as the reference (row lengths, then columns), then values within tol.
inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

template <typename T>
void run_spgemm_t(const Csr& a_in, const Csr& b_in, bool same, const SpgemmOptions& o) {
  const bool f32 = sizeof(T) == 4;
  const MatT<T> A = to_mat<T>(a_in);
  const MatT<T> B = same ? A : to_mat<T>(b_in);
  // The reference sees the operands rounded to T, exactly as the method does.
  Csr ar = a_in, br = b_in;
  for (double& v : ar.values) v = round_to(v, f32);
  for (double& v : br.values) v = round_to(v, f32);
  const int64_t products = spgemm_products(ar, br);
  const SpgemmReference ref = make_reference(ar, br, o.reference, int(sizeof(T)));

  if (o.explain) {
    std::string rows = "[[\"rows of A\"," + jnum(a_in.rows) + "],[\"cols of B\"," + jnum(b_in.cols) + "],[\"nnz(A)\"," + jnum(double(a_in.nnz())) +
                       "],[\"nnz(B)\"," + jnum(double(b_in.nnz())) + "],[\"products\"," + jnum(double(products)) + "],[\"threads\"," + jnum(threads()) + "]";
    if (ref.have && ref.rows.empty()) rows += ",[\"nnz(C)\"," + jnum(double(ref.c.nnz())) + "]";
    rows += "]";
    Json().str("type", "explain").str("op", "spgemm").str("title", "cpu-gustavson: problem size").raw("columns", "[\"quantity\",\"value\"]").raw("rows", rows).emit();
  }

  for (const std::string& method : o.common.methods) {
    Result r;
    r.op = "spgemm"; r.method = method;
    r.params = {{"precision", jstr(o.common.precision)}, {"rows", jnum(double(a_in.rows))}, {"cols", jnum(double(b_in.cols))},
                {"nnz_a", jnum(double(a_in.nnz()))}, {"nnz_b", jnum(double(b_in.nnz()))}, {"a_times_a", same ? "true" : "false"}};
    r.flops = 2.0 * double(products);
    r.tol = default_tol(f32);
    r.info["threads"] = threads();
    r.info["products"] = double(products);
    run_guarded(r, [&](Result& res) {
      MatT<T> C;
      std::vector<int64_t> cnt;
      std::map<std::string, std::vector<double>> phases;
      auto poison = [&] {
        std::fill(C.row_ptr.begin(), C.row_ptr.end(), -1);
        std::fill(C.col_idx.begin(), C.col_idx.end(), -1);
        std::fill(C.val.begin(), C.val.end(), std::numeric_limits<T>::quiet_NaN());
      };
      res.samples_ms = time_samples(o.common, poison, [&](bool timed) {
        auto t = gustavson(A, B, C, cnt);
        if (timed)
          for (const auto& kv : t) phases[kv.first].push_back(kv.second);
      }, res);
      const int64_t nnzc = C.row_ptr.back();
      if (o.fault && nnzc > 0) {
        int64_t worst = 0, most = -1;
        for (int64_t r = 0; r < A.rows; ++r) {
          int64_t p = 0;
          for (int32_t k = A.row_ptr[size_t(r)]; k < A.row_ptr[size_t(r) + 1]; ++k) p += B.row_ptr[size_t(A.col_idx[size_t(k)]) + 1] - B.row_ptr[size_t(A.col_idx[size_t(k)])];
          if (p > most && C.row_ptr[size_t(r) + 1] > C.row_ptr[size_t(r)]) { most = p; worst = r; }
        }
        C.val[size_t(C.row_ptr[size_t(worst) + 1] - 1)] += T(1);
      }
      res.info["nnz_c"] = double(nnzc);
      res.bytes_moved = csr_bytes(A.rows, int64_t(A.val.size()), sizeof(T)) + (same ? 0.0 : csr_bytes(B.rows, int64_t(B.val.size()), sizeof(T))) +
                        csr_bytes(C.rows, nnzc, sizeof(T));
      // Host bytes this method allocated: C, the row counts, and each thread's marker + accumulator rows.
      res.peak_mem_bytes = csr_bytes(C.rows, nnzc, sizeof(T)) + double(cnt.size() * sizeof(int64_t)) +
                           double(threads()) * double(B.cols) * double(sizeof(int32_t) * 2 + sizeof(double));
      if (o.breakdown)
        for (const auto& kv : phases) res.breakdown_ms[kv.first] = median(kv.second);
      if (ref.have) {
        const SpgemmCheck chk = check_spgemm(ref, C.rows, C.row_ptr.data(), C.col_idx.data(), C.val.data(), r.tol);
        res.checked = true; res.passed = chk.passed; res.reference = ref.label;
        res.max_err = chk.passed ? chk.err : std::numeric_limits<double>::quiet_NaN();
        if (!chk.passed) { res.status = "failed"; res.detail = chk.detail; }
        if (ref.from_cache) res.info["reference_cached"] = 1;
      } else {
        res.detail = "not checked: --reference none";
      }
      if (o.dump) {
        auto arr = [](const auto& v) { std::string s = "["; for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + jnum(double(v[i])); return s + "]"; };
        emit_log("info", method + " C row_ptr=" + arr(C.row_ptr) + " col_idx=" + arr(C.col_idx) + " values=" + arr(C.val));
      }
    });
  }
}

inline void run_spgemm(const Csr& a, const Csr& b, bool same, const SpgemmOptions& o) {
  if (o.common.precision == "f32") run_spgemm_t<float>(a, b, same, o);
  else run_spgemm_t<double>(a, b, same, o);
}

}  // namespace spb::cpu
