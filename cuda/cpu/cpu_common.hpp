// Shared pieces of the CPU reference backend: bad-input errors, timing, the seeded B generator and
// the result line writer (docs/native-protocol.md). Plain C++17 + OpenMP, no CUDA.
#pragma once
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <climits>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "../common/json.hpp"
#include "../common/reference.hpp"
#include "../common/sampling.hpp"
#include <unistd.h>

namespace spb::cpu {

// Bad arguments or unreadable input: the executable prints the message and exits 2.
struct BadInput : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

inline int threads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

// Options every op shares (validated once, here).
struct Common {
  std::string precision;  // "f32" | "f64"
  std::vector<std::string> methods;
  int warmup = 0;
  SamplingSpec sampling;  // --samples N|auto, --max-noise ..., --cache hot|cold (cuda/common/sampling.hpp)
};

// Expands "all" and rejects unknown method names, naming the known ones.
inline std::vector<std::string> pick_methods(const std::vector<std::string>& asked, const std::vector<std::string>& known) {
  if (asked.empty() || (asked.size() == 1 && asked[0] == "all")) return known;
  for (const std::string& m : asked) {
    bool ok = false;
    for (const std::string& k : known) ok = ok || k == m;
    if (!ok) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      throw BadInput("unknown method '" + m + "' for the CPU backend (known: all, " + list + ")");
    }
  }
  return asked;
}

// splitmix64: tiny, seedable, identical on every platform, so B is reproducible from --seed.
struct SplitMix {
  uint64_t s;
  explicit SplitMix(uint64_t seed) : s(seed) {}
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform_pm1() { return double(next() >> 11) * (2.0 / 9007199254740992.0) - 1.0; }  // [-1, 1)
};

// Rounds a value to the precision under test, so the reference sees exactly the data the method sees.
inline double round_to(double v, bool f32) { return f32 ? double(float(v)) : v; }

inline double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// One matrix in a method's working types (int32 indices, values in T), as the GPU kernels hold it.
template <typename T>
struct MatT {
  int32_t rows = 0, cols = 0;
  std::vector<int32_t> row_ptr, col_idx;
  std::vector<T> val;
};

template <typename T>
MatT<T> to_mat(const Csr& a) {
  if (a.rows > INT32_MAX || a.cols > INT32_MAX || a.nnz() > INT32_MAX)
    throw BadInput("matrix of " + std::to_string(a.rows) + " x " + std::to_string(a.cols) + " with " + std::to_string(a.nnz()) +
                   " nonzeros exceeds the int32 indices the CPU backend uses");
  MatT<T> m;
  m.rows = int32_t(a.rows); m.cols = int32_t(a.cols);
  m.row_ptr.assign(a.row_ptr.begin(), a.row_ptr.end());
  m.col_idx.assign(a.col_idx.begin(), a.col_idx.end());
  m.val.reserve(a.values.size());
  for (double v : a.values) m.val.push_back(T(v));
  return m;
}

// Minimal bytes of a CSR matrix with int32 indices and values of `value_bytes`.
inline double csr_bytes(int64_t rows, int64_t nnz, size_t value_bytes) { return double((rows + 1) * 4 + nnz * int64_t(4 + value_bytes)); }

using Params = std::map<std::string, std::string>;  // values already JSON-encoded

inline std::string jstr(const std::string& s) { return "\"" + json_escape(s) + "\""; }
inline std::string jnum(double v) { char b[32]; std::snprintf(b, sizeof b, "%.17g", v); return b; }

// One result line. samples/peak/flops/bytes are filled by the method; verify by the caller.
struct Result {
  std::string op, method;
  Params params;
  std::string status = "ok", reason;
  std::vector<double> samples_ms;
  double flops = 0, bytes_moved = 0, peak_mem_bytes = 0;
  bool checked = false, passed = false;
  double max_err = std::numeric_limits<double>::quiet_NaN();
  double tol = 1;
  std::string detail;
  std::string reference = "cpu-f64";  // what the check compared with (e.g. a sample of rows)
  std::map<std::string, double> breakdown_ms;
  std::map<std::string, double> info;
  std::string cache, sampling;  // "hot"/"cold" and the sampling object (JSON), set by time_samples

  void emit() const {
    Json pj;
    for (const auto& kv : params) pj.raw(kv.first, kv.second);
    Json vj;
    vj.boolean("checked", checked).boolean("passed", passed);
    if (checked && std::isfinite(max_err)) vj.num("max_rel_err", max_err); else vj.null("max_rel_err");
    vj.num("tol", tol).str("reference", reference);
    if (!detail.empty()) vj.str("detail", detail);
    Json j;
    j.str("type", "result").str("op", op).str("method", method).str("family", "reference").raw("params", pj.done());
    j.str("status", status);
    if (!reason.empty()) j.str("reason", reason);
    j.str("timed_region", "cpu-wall").nums("samples_ms", samples_ms);
    j.num("flops", flops).num("bytes_moved", bytes_moved).num("peak_mem_bytes", peak_mem_bytes).raw("verify", vj.done());
    if (!breakdown_ms.empty()) {
      Json b;
      for (const auto& kv : breakdown_ms) b.num(kv.first, kv.second);
      j.raw("breakdown_ms", b.done());
    }
    if (!cache.empty()) j.str("cache", cache);
    if (!sampling.empty() && !samples_ms.empty()) j.raw("sampling", sampling);
    if (!info.empty()) {
      Json b;
      for (const auto& kv : info) b.num(kv.first, kv.second);
      j.raw("info", b.done());
    }
    j.emit();
  }
};

// --cache cold on the CPU: writes a buffer of twice the last-level cache (64 MiB where it is not known, 256 MiB at most).
inline void flush_host_caches() {
  static std::vector<unsigned char> buf;
  static unsigned char tick = 0;
  if (buf.empty()) {
    long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
    buf.resize(size_t(llc > 0 ? std::min(2 * llc, 256l << 20) : 64l << 20));
  }
  std::memset(buf.data(), ++tick, buf.size());
}

// Runs the warm-up calls of `body` (run_warmups: at most `warmup`), then timed ones as the sampling rule says (the shared loop of
// cuda/common/sampling.hpp: --samples N or auto), calling `poison` (and, --cache cold, the cache flush)
// before every call outside the timed region, so an output the method forgot to write is caught by
// verification. Records the cache state and the sampling object in `r`.
// body(timed): whether the call is a timed sample (false for warm-ups).
inline std::vector<double> time_samples(const Common& c, const std::function<void()>& poison, const std::function<void(bool)>& body, Result& r) {
  run_warmups(c.warmup, [&] { poison(); body(false); });
  SamplingOutcome o = collect_samples(c.sampling, [&] { poison(); if (c.sampling.cold) flush_host_caches(); }, [&] {
    auto t0 = std::chrono::steady_clock::now();
    body(true);
    return ms_since(t0);
  });
  r.cache = c.sampling.cold ? "cold" : "hot";
  r.sampling = sampling_json(c.sampling, o);
  return o.samples;
}

// Fills verification fields from an error report; `where` locates the worst element in the detail.
inline void judge(Result& r, const ErrReport& e, double tol, const std::string& where) {
  r.checked = true;
  r.tol = tol;
  r.max_err = e.finite ? e.max_err : std::numeric_limits<double>::quiet_NaN();
  r.passed = e.finite && e.max_err <= tol;
  auto g = [](double v) { char b[32]; std::snprintf(b, sizeof b, "%.6g", v); return std::string(b); };
  if (!e.finite) r.detail = where + ": non-finite output " + g(e.got) + " (reference " + g(e.want) + "); unwritten or overflowed";
  else if (!r.passed) r.detail = where + ": normalized error " + g(e.max_err) + " > tol " + g(tol) + " (got " + g(e.got) + ", want " + g(e.want) + ")";
  if (!r.passed) r.status = "failed";
}

// Runs one method's whole measurement; an exception becomes a result with status "error".
inline void run_guarded(Result& r, const std::function<void(Result&)>& f) {
  try {
    f(r);
  } catch (const std::exception& e) {
    r.status = "error";
    r.reason = std::string(r.method) + " failed: " + e.what();
    r.samples_ms.clear();
    r.checked = false; r.passed = false; r.detail = "";
  }
  r.emit();
}

}  // namespace spb::cpu
