// The SpGEMM oracle shared by the GPU driver and the CPU backend: which reference to compute (--reference
// auto | cpu | none | rows:N), a cache of references keyed by the operands' content and precision (and the rows drawn)
// (--reference-cache DIR: a second run or --repeat reads it instead of recomputing), and the check of a result against
// it (identical pattern with sorted columns, values within the normalized tolerance). Also what the two GPU
// executables (cuda/drivers/spgemm_cuda.cu, plugin_spgemm.cu) read and report alike: the operands, their values
// rounded to the precision under test, the result line's params and bytes moved.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>
#include "binfmt.hpp"
#include "json.hpp"
#include "reference.hpp"

namespace spb {

// One SpGEMM operand from an .spb file given as --WHICH (the GPU drivers' int32 path): exactly one matrix, dimensions
// and nnz within 2^31-1; a bad file is a usage error naming the option.
inline Csr load_spgemm_operand(const std::string& path, const char* which) {
  SpbFile f;
  try { f = read_spb(path); } catch (const std::runtime_error& e) { throw std::invalid_argument(std::string("--") + which + ": " + e.what()); }
  if (f.mats.size() != 1) throw std::invalid_argument(std::string("--") + which + " " + path + ": expected one matrix, found " + std::to_string(f.mats.size()));
  Csr c = std::move(f.mats[0]);
  if (c.rows > INT32_MAX || c.cols > INT32_MAX || c.nnz() > INT32_MAX)
    throw std::invalid_argument(std::string("--") + which + " " + path + ": dimensions or nnz exceed the int32 path's 2^31-1");
  return c;
}

// Values rounded to the precision under test, so the reference sees the data the GPU sees.
template <typename T> void round_values(Csr& c) { for (double& v : c.values) v = double(T(v)); }

// The result line's params: precision, the operands' file names (b: "A" for A*A), shapes and products.
inline std::string spgemm_params(const Csr& A, const Csr& B, const std::string& a_path, const std::string& b_path, int value_bytes, long long products) {
  auto base_name = [](const std::string& p) { size_t s = p.find_last_of('/'); return s == std::string::npos ? p : p.substr(s + 1); };
  return Json().str("precision", value_bytes == 4 ? "f32" : "f64").str("a", base_name(a_path)).str("b", b_path.empty() ? "A" : base_name(b_path))
      .integer("rows", A.rows).integer("inner", A.cols).integer("cols", B.cols).integer("nnz_a", A.nnz()).integer("nnz_b", B.nnz()).integer("products", products)
      .done();
}

// The result line's bytes_moved: A, B and C (nnz_c < 0: not known, left out) as int32 CSR with value_bytes values.
inline double spgemm_bytes_moved(const Csr& A, const Csr& B, long long nnz_c, int value_bytes) {
  auto csr_bytes = [&](long long rows, long long nnz) { return double(rows + 1) * 4 + double(nnz) * (4 + value_bytes); };
  return csr_bytes(A.rows, A.nnz()) + csr_bytes(B.rows, B.nnz()) + (nnz_c >= 0 ? csr_bytes(A.rows, nnz_c) : 0);
}

// --reference auto: every row while A*B has at most kAutoFullProducts products, else kAutoRows rows. Above that
// size a full float64 reference holds > 6 GB on the host (24 bytes an entry), is past the cache's cap, and with its
// checks took 85 s of a 110 s run on the circuit-like matrix of issue 12 (972 M products, 16 cores).
constexpr int64_t kAutoFullProducts = int64_t(1) << 28;
constexpr int64_t kAutoRows = 4096;

struct ReferenceSpec {
  enum class Kind { None, Full, Rows, Auto } kind = Kind::Full;
  int64_t rows = 0;         // Rows: how many rows are checked
  uint64_t seed = 1;        // Rows: the draw of the rows
  std::string cache_dir;    // Full: where references are kept ("" = no cache)
  unsigned threads = 0;     // worker threads of the reference (0: every core)
  int64_t auto_products = kAutoFullProducts;  // Auto: the largest product count checked in full
};

// "cpu" (every row), "none", "rows:N" (N >= 1 rows: the longest by products and the rest drawn from the seed), "auto"
// (cpu or rows:kAutoRows by the product count).
inline ReferenceSpec parse_reference(const std::string& text, uint64_t seed, const std::string& cache_dir) {
  ReferenceSpec s;
  s.seed = seed; s.cache_dir = cache_dir;
  if (text == "cpu") return s;
  if (text == "auto") {
    s.kind = ReferenceSpec::Kind::Auto;
    // a test seam: the switch to rows, shown on small matrices (test/native-cpu.test.ts)
    if (const char* e = std::getenv("SPBENCH_VERIFY_AUTO_PRODUCTS")) s.auto_products = std::max<int64_t>(0, std::atoll(e));
    return s;
  }
  if (text == "none") { s.kind = ReferenceSpec::Kind::None; return s; }
  const std::string pre = "rows:";
  if (text.compare(0, pre.size(), pre) == 0) {
    const std::string n = text.substr(pre.size());
    if (!n.empty() && n.size() <= 12 && n.find_first_not_of("0123456789") == std::string::npos && std::stoll(n) >= 1) {
      s.kind = ReferenceSpec::Kind::Rows; s.rows = std::stoll(n);
      return s;
    }
  }
  throw std::invalid_argument("--reference must be auto, cpu, none or rows:N with N >= 1, got '" + text + "'");
}

// Rows to check: the longest eighth of n by products (so the rows most likely to take a special path are always
// among them), then rows drawn from the seed; sorted, distinct; every row when n >= rows of A.
inline std::vector<int64_t> sample_rows(const Csr& A, const Csr& B, int64_t n, uint64_t seed) {
  std::vector<int64_t> out;
  if (n >= A.rows) { out.resize(size_t(A.rows)); for (int64_t i = 0; i < A.rows; ++i) out[size_t(i)] = i; return out; }
  std::vector<std::pair<int64_t, int64_t>> prod(size_t(A.rows));
  for (int64_t r = 0; r < A.rows; ++r) {
    int64_t p = 0;
    for (int64_t k = A.row_ptr[r]; k < A.row_ptr[r + 1]; ++k) p += B.row_ptr[A.col_idx[k] + 1] - B.row_ptr[A.col_idx[k]];
    prod[size_t(r)] = {-p, r};
  }
  const int64_t longest = std::max<int64_t>(1, n / 8);
  std::partial_sort(prod.begin(), prod.begin() + longest, prod.end());
  std::vector<char> taken(size_t(A.rows), 0);
  for (int64_t i = 0; i < longest; ++i) { out.push_back(prod[size_t(i)].second); taken[size_t(prod[size_t(i)].second)] = 1; }
  std::mt19937_64 rng(seed);
  while (int64_t(out.size()) < n) {
    const int64_t r = int64_t(rng() % uint64_t(A.rows));
    if (!taken[size_t(r)]) { taken[size_t(r)] = 1; out.push_back(r); }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// 64-bit content hash of the operands (dimensions, pattern, values as given: already rounded to the precision).
inline uint64_t operands_hash(const Csr& A, const Csr& B, int value_bytes) {
  uint64_t h = 0x9E3779B97F4A7C15ull ^ uint64_t(value_bytes);
  auto mix = [&](uint64_t x) { h ^= x + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2); h *= 0xBF58476D1CE4E5B9ull; h ^= h >> 31; };
  for (const Csr* m : {&A, &B}) {
    mix(uint64_t(m->rows)); mix(uint64_t(m->cols)); mix(uint64_t(m->nnz()));
    for (int64_t v : m->row_ptr) mix(uint64_t(v));
    for (int64_t v : m->col_idx) mix(uint64_t(v));
    for (double v : m->values) { uint64_t u; std::memcpy(&u, &v, 8); mix(u); }
  }
  return h;
}

struct SpgemmReference {
  bool have = false;
  std::string label;           // what the result's verify.reference says
  std::vector<int64_t> rows;   // the checked rows (empty: all)
  Csr c;                       // the reference rows (all of C, or rows.size() rows in the order of `rows`)
  std::vector<double> absc;    // sum |a*b| of every reference entry
  bool from_cache = false;
};

// References above this many entries are not cached (24 bytes an entry on disk with int32 indices).
constexpr int64_t kMaxCachedEntries = int64_t(1) << 28;

// A cached reference: C's rows (values) and the same pattern again with the absolute sums as values.
inline bool read_cached_reference(const std::string& path, int64_t rows, int64_t cols, SpgemmReference& r) {
  if (FILE* f = std::fopen(path.c_str(), "rb")) std::fclose(f); else return false;
  try {
    SpbFile cached = read_spb(path, false);
    if (cached.mats.size() == 2 && cached.mats[0].rows == rows && cached.mats[0].cols == cols && cached.mats[1].nnz() == cached.mats[0].nnz()) {
      r.c = std::move(cached.mats[0]);
      r.absc = std::move(cached.mats[1].values);
      r.from_cache = true;
      return true;
    }
  } catch (const std::exception&) {
    // unreadable cache entry: recompute and overwrite it
  }
  return false;
}

inline void write_cached_reference(const std::string& path, const SpgemmReference& r) {
  if (path.empty() || r.c.nnz() > kMaxCachedEntries) return;
  // C's pattern twice (values, then the absolute sums) from the same arrays; int32 indices whenever they fit
  CsrView abs = view_of(r.c);
  abs.values = r.absc.data();
  const int ib = r.c.nnz() <= INT32_MAX && r.c.cols <= INT32_MAX ? 4 : 8;
  try { write_spb(path, std::vector<CsrView>{view_of(r.c), abs}, ib, 2); } catch (const std::exception&) { /* a cache that cannot be written only costs time */ }
}

inline SpgemmReference make_reference(const Csr& A, const Csr& B, ReferenceSpec s, int value_bytes) {
  SpgemmReference r;
  if (s.kind == ReferenceSpec::Kind::None) return r;
  r.have = true;
  std::string why;  // --reference auto's choice, said in the label
  if (s.kind == ReferenceSpec::Kind::Auto) {
    const int64_t products = spgemm_products(A, B);
    if (products <= s.auto_products || A.rows <= kAutoRows) s.kind = ReferenceSpec::Kind::Full;
    else {
      s.kind = ReferenceSpec::Kind::Rows; s.rows = kAutoRows;
      why = "; auto: " + std::to_string(products) + " products, above the full reference's " + std::to_string(s.auto_products) + " (--verify full checks every row)";
    }
  }
  std::string path;
  char name[96];
  const bool sampled = s.kind == ReferenceSpec::Kind::Rows;
  if (sampled) {
    r.rows = sample_rows(A, B, s.rows, s.seed);
    if (int64_t(r.rows.size()) == A.rows) r.rows.clear();
  }
  r.label = r.rows.empty() ? "cpu-f64" : "cpu-f64 rows:" + std::to_string(r.rows.size()) + " (longest and seeded" + why + ")";
  if (!s.cache_dir.empty()) {
    const unsigned long long h = (unsigned long long)operands_hash(A, B, value_bytes);
    if (r.rows.empty()) std::snprintf(name, sizeof name, "/spgemm-ref-%016llx.spb", h);
    else std::snprintf(name, sizeof name, "/spgemm-ref-%016llx-rows%lld-seed%llu.spb", h, (long long)r.rows.size(), (unsigned long long)s.seed);
    path = s.cache_dir + name;
    if (read_cached_reference(path, r.rows.empty() ? A.rows : int64_t(r.rows.size()), B.cols, r)) return r;
  }
  r.c = ref_spgemm(A, B, &r.absc, r.rows, s.threads);
  write_cached_reference(path, r);
  return r;
}

struct SpgemmCheck { bool passed = false; double err = 0; std::string detail; };

// Checks C (host copies: row pointers of all rows, columns, values) against the reference: every reference row must
// have the same columns in the same (sorted) order and values within tol of the normalized error. Rows are cut into
// one range a core (a check of 150 M entries took seconds on one); the verdict is the sequential one: the first row
// whose pattern differs, else the first non-finite value, else the largest error (first where tied).
// compact: rp, ci and v hold only the reference's rows, in its order (row ref.rows[j] at rp[j]..rp[j+1]), as
// fetch_and_check (spgemm_fetch.cuh) brings them from the device.
template <typename P, typename I, typename V>
SpgemmCheck check_spgemm(const SpgemmReference& ref, int64_t c_rows, const P* rp, const I* ci, const V* v, double tol, bool compact = false,
                         unsigned threads = 0) {
  SpgemmCheck o;
  const Csr& R = ref.c;
  const int64_t nr = ref.rows.empty() ? c_rows : int64_t(ref.rows.size());
  compact = compact && !ref.rows.empty();
  if (ref.rows.empty() && c_rows != R.rows) { o.detail = "C has " + std::to_string(c_rows) + " rows, the reference " + std::to_string(R.rows); return o; }
  if (!compact && int64_t(rp[0]) != 0) { o.detail = "row pointer 0 is " + std::to_string(int64_t(rp[0])) + ", not 0"; return o; }
  struct Part { std::string pattern; ErrReport err; };
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  const int64_t nparts = std::max<int64_t>(1, std::min<int64_t>(threads, R.nnz() / 65536 + 1));
  std::vector<Part> parts(static_cast<size_t>(nparts));
  auto work = [&](int64_t t) {
    Part& p = parts[size_t(t)];
    const int64_t j0 = nr * t / nparts, j1 = nr * (t + 1) / nparts;
    for (int64_t j = j0; j < j1 && p.pattern.empty(); ++j) {
      const int64_t row = ref.rows.empty() ? j : ref.rows[size_t(j)], at = compact ? j : row;
      const int64_t s = int64_t(rp[at]), n = int64_t(rp[at + 1]) - s, r0 = R.row_ptr[j], want = R.row_ptr[j + 1] - r0;
      if (n != want) { p.pattern = "row " + std::to_string(row) + " has " + std::to_string(n) + " entries, the reference " + std::to_string(want); break; }
      for (int64_t k = 0; k < n; ++k)
        if (int64_t(ci[s + k]) != R.col_idx[r0 + k]) {
          p.pattern = "row " + std::to_string(row) + ": column " + std::to_string(int64_t(ci[s + k])) + " where the reference has " +
                      std::to_string(R.col_idx[r0 + k]) + " (pattern differs or columns unsorted)";
          break;
        }
      if (!p.pattern.empty()) break;
      if (!p.err.finite) continue;  // the range's verdict on values is in; only patterns can still outrank it
      ErrReport e = max_norm_err(v + s, R.values.data() + r0, ref.absc.data() + r0, n);
      if (e.where >= 0) e.where += r0;  // an index into the reference's entries
      if (!e.finite) p.err = e;
      else if (e.max_err > p.err.max_err) p.err = e;
    }
  };
  std::vector<std::thread> pool;
  for (int64_t t = 1; t < nparts; ++t) pool.emplace_back(work, t);
  work(0);
  for (auto& t : pool) t.join();
  for (const Part& p : parts) if (!p.pattern.empty()) { o.detail = p.pattern; return o; }
  ErrReport e;
  for (const Part& p : parts) {
    if (!p.err.finite) { e = p.err; break; }
    if (p.err.max_err > e.max_err) e = p.err;
  }
  auto where = [&](int64_t p) {
    const int64_t j = int64_t(std::upper_bound(R.row_ptr.begin(), R.row_ptr.end(), p) - R.row_ptr.begin()) - 1;
    return "row " + std::to_string(ref.rows.empty() ? j : ref.rows[size_t(j)]) + ", entry " + std::to_string(p - R.row_ptr[j]);
  };
  if (!e.finite) { o.detail = "non-finite value in " + where(e.where) + " (unwritten output?)"; return o; }
  o.err = e.max_err;
  if (e.max_err > tol) { o.detail = "value in " + where(e.where) + ": got " + std::to_string(e.got) + ", reference " + std::to_string(e.want); return o; }
  o.passed = true;
  return o;
}

}  // namespace spb
