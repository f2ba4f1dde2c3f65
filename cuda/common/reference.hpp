// CPU reference (the oracle): SpMM and Gustavson SpGEMM in float64, and the verification metric.
// Inputs are passed already rounded to the precision under test, so the reference sees the same data.
#pragma once
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <thread>
#include <vector>
#include "binfmt.hpp"
#include "value_traits.hpp"

namespace spb {

// Default verification tolerances on the normalized error |c - ref| / sum|a*b| (see max_norm_err).
inline double default_tol(bool f32) { return f32 ? Acc<float>::tol : Acc<double>::tol; }

// C = A * B for one matrix; B is dense k x nb (row-major, ldb = nb), C is m x nb (row-major).
// Also returns, per output, the sum of |a*b| terms, which bounds the rounding error of any summation order.
inline void ref_spmm(const Csr& A, const double* B, int64_t nb, double* C, double* absC) {
  for (int64_t r = 0; r < A.rows; ++r) {
    double* c = C + r * nb;
    double* a = absC + r * nb;
    std::fill(c, c + nb, 0.0);
    std::fill(a, a + nb, 0.0);
    for (int64_t k = A.row_ptr[r]; k < A.row_ptr[r + 1]; ++k) {
      const double v = A.values[k];
      const double* b = B + A.col_idx[k] * nb;
      for (int64_t j = 0; j < nb; ++j) { c[j] += v * b[j]; a[j] += std::fabs(v * b[j]); }
    }
  }
}

struct ErrReport {
  double max_err = 0;   // max normalized error
  bool finite = true;   // false when any output is NaN/Inf (unwritten poison or overflow)
  int64_t where = -1;   // index of the worst (or first non-finite) element
  double got = 0, want = 0;
};

// Normalized error of each element: |got - want| / max(sum|a*b|, floor) (floor: tiny, or f16's smallest
// normal, Acc<T>::floor). Exact zeros (no terms) must be exactly 0.
template <typename T>
ErrReport max_norm_err(const T* got, const double* want, const double* absw, int64_t n, double floor = std::numeric_limits<double>::min()) {
  ErrReport r;
  for (int64_t i = 0; i < n; ++i) {
    double g = double(got[i]);
    if (!std::isfinite(g)) { r.finite = false; r.where = i; r.got = g; r.want = want[i]; return r; }
    double scale = absw[i] > floor ? absw[i] : floor;
    double e = std::fabs(g - want[i]) / scale;
    if (absw[i] == 0 && g != 0) e = std::numeric_limits<double>::infinity();
    if (e > r.max_err) { r.max_err = e; r.where = i; r.got = g; r.want = want[i]; }
  }
  return r;
}

// Number of intermediate products of A*B (the SpGEMM flop count is twice this).
inline int64_t spgemm_products(const Csr& A, const Csr& B) {
  int64_t p = 0;
  for (int64_t k = 0; k < A.nnz(); ++k) { int64_t c = A.col_idx[k]; p += B.row_ptr[c + 1] - B.row_ptr[c]; }
  return p;
}

// Gustavson SpGEMM in float64 with sorted output columns, over the rows `rows` of A (all rows when empty: C has
// A.rows rows; else C has rows.size() rows, in that order); absC holds sum|a*b| per output entry. The rows are cut
// into chunks that `threads` workers take in turn (0: the machine's cores); each row is summed in the same order
// whatever the split, so the result does not depend on the thread count.
inline Csr ref_spgemm(const Csr& A, const Csr& B, std::vector<double>* absC = nullptr, const std::vector<int64_t>& rows = {},
                      unsigned threads = 0) {
  const int64_t nr = rows.empty() ? A.rows : int64_t(rows.size());
  auto row_of = [&](int64_t i) { return rows.empty() ? i : rows[size_t(i)]; };
  const int64_t chunk = 2048;
  const int64_t nchunks = (nr + chunk - 1) / chunk;
  struct Part { std::vector<int64_t> cnt, col; std::vector<double> val, abs; };
  std::vector<Part> parts(static_cast<size_t>(nchunks));
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = unsigned(std::min<int64_t>(threads, std::max<int64_t>(1, nchunks)));
  std::atomic<int64_t> next{0};
  auto work = [&] {
    std::vector<int64_t> mark(size_t(B.cols), -1);
    std::vector<double> acc(size_t(B.cols), 0.0), accAbs(size_t(B.cols), 0.0);
    std::vector<int64_t> cols;
    for (int64_t ch; (ch = next.fetch_add(1)) < nchunks;) {
      Part& p = parts[size_t(ch)];
      for (int64_t i = ch * chunk; i < std::min(nr, (ch + 1) * chunk); ++i) {
        const int64_t r = row_of(i);
        cols.clear();
        for (int64_t k = A.row_ptr[r]; k < A.row_ptr[r + 1]; ++k) {
          const int64_t a = A.col_idx[k]; const double av = A.values[k];
          for (int64_t l = B.row_ptr[a]; l < B.row_ptr[a + 1]; ++l) {
            const int64_t c = B.col_idx[l];
            if (mark[c] != i) { mark[c] = i; acc[c] = 0; accAbs[c] = 0; cols.push_back(c); }
            acc[c] += av * B.values[l]; accAbs[c] += std::fabs(av * B.values[l]);
          }
        }
        std::sort(cols.begin(), cols.end());
        for (int64_t c : cols) { p.col.push_back(c); p.val.push_back(acc[c]); if (absC) p.abs.push_back(accAbs[c]); }
        p.cnt.push_back(int64_t(cols.size()));
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  Csr C;
  C.rows = nr; C.cols = B.cols;
  C.row_ptr.assign(size_t(nr) + 1, 0);
  size_t total = 0;
  for (const Part& p : parts) total += p.col.size();
  C.col_idx.reserve(total); C.values.reserve(total);
  if (absC) { absC->clear(); absC->reserve(total); }
  int64_t i = 0;
  for (Part& p : parts) {
    for (int64_t n : p.cnt) { C.row_ptr[size_t(i) + 1] = C.row_ptr[size_t(i)] + n; ++i; }
    C.col_idx.insert(C.col_idx.end(), p.col.begin(), p.col.end());
    C.values.insert(C.values.end(), p.val.begin(), p.val.end());
    if (absC) absC->insert(absC->end(), p.abs.begin(), p.abs.end());
    std::vector<int64_t>().swap(p.cnt); std::vector<int64_t>().swap(p.col); std::vector<double>().swap(p.val); std::vector<double>().swap(p.abs);
  }
  return C;
}

}  // namespace spb
