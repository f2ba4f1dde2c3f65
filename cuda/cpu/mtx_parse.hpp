// Fast path of the Matrix Market reader: `spbench-cpu mtx2spb` parses the entry lines of a
// coordinate file (the TypeScript side has read the banner and size line with the one grammar of
// src/matrix/mtx-read.ts and passes their figures) with OpenMP threads over byte ranges, and writes
// canonical CSR as .spb (float64 values, int32 indices while nnz fits).
//
// It accepts a strict subset of that grammar and never reports a line: on anything unusual (a bad
// token, inf/nan, an index out of range, a wrong entry count) it exits with kFallback and the
// TypeScript reader parses the file again, giving the exact error with its line number.
#pragma once
#include <fcntl.h>
#include <omp.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace spb::mtx {

constexpr int kFallback = 4;  // exit code: not parsed here, let the TypeScript reader do it

struct Fallback : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Job {
  std::string input, output;
  uint64_t offset = 0;  // first byte after the size line
  int64_t rows = 0, cols = 0, entries = 0;
  bool pattern = false, integer = false;
  int mirror = 0;  // 0 general, 1 symmetric/hermitian, -1 skew-symmetric
};

// A large scratch array: anonymous memory asking for transparent huge pages (where the kernel
// offers them on request), so that first touching a few hundred MB costs 512 times fewer page
// faults; only the pages touched are committed, so capacity can be a generous upper bound.
template <class T>
struct Big {
  T* p = nullptr;
  size_t bytes = 0;
  Big() = default;
  explicit Big(size_t n) { alloc(n); }
  Big(const Big&) = delete;
  Big& operator=(const Big&) = delete;
  ~Big() { release(); }
  void alloc(size_t n) {
    release();
    bytes = std::max<size_t>(n, 1) * sizeof(T);
    void* m = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) { bytes = 0; throw Fallback("out of memory"); }
#ifdef MADV_HUGEPAGE
    ::madvise(m, bytes, MADV_HUGEPAGE);
#endif
    p = static_cast<T*>(m);
  }
  void release() {
    if (p) ::munmap(p, bytes);
    p = nullptr;
    bytes = 0;
  }
  T& operator[](size_t i) { return p[i]; }
  const T& operator[](size_t i) const { return p[i]; }
};

struct Part {
  Big<int32_t> r, c;
  Big<double> v;
  int64_t n = 0;      // triplets stored (mirrors included)
  int64_t count = 0;  // entry lines (before mirroring)
  bool bad = false;
};

inline bool blank(char c) { return c == ' ' || c == '\t'; }

constexpr double kPow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// Clinger's fast path: a decimal token (optional sign, at most 15 digits counting leading zeros,
// optional fraction, optional exponent) whose value is w * 10^q with w < 10^15 and |q| <= 22 is
// one IEEE multiplication or division of two exact doubles, hence correctly rounded — the same
// double as std::from_chars and JavaScript's Number(). Returns false (nothing consumed) for
// anything else; the caller then uses from_chars. `dotted` says whether a '.' or an exponent
// appeared (the integer field rejects those).
inline bool fast_value(const char*& q, double& out, bool& dotted) {
  const char* p = q;
  const bool neg = *p == '-';
  if (neg || *p == '+') ++p;
  uint64_t w = 0;
  const char* s = p;
  const char* stop = p + 15;  // a 16th digit ends the fast path at once (17-digit values: from_chars)
  while (unsigned(*p - '0') <= 9u) {
    if (p == stop) return false;
    w = w * 10 + uint64_t(*p++ - '0');
  }
  int64_t nd = p - s, frac = 0;
  dotted = false;
  if (*p == '.') {
    dotted = true;
    const char* f = ++p;
    stop = f + (15 - nd);
    while (unsigned(*p - '0') <= 9u) {
      if (p == stop) return false;
      w = w * 10 + uint64_t(*p++ - '0');
    }
    frac = p - f;
    nd += frac;
  }
  if (nd == 0) return false;
  int64_t e = 0;
  if (*p == 'e' || *p == 'E') {
    dotted = true;
    ++p;
    const bool eneg = *p == '-';
    if (eneg || *p == '+') ++p;
    const char* es = p;
    while (unsigned(*p - '0') <= 9u && p - es < 4) e = e * 10 + (*p++ - '0');
    if (p == es || unsigned(*p - '0') <= 9u) return false;
    if (eneg) e = -e;
  }
  if (!(blank(*p) || *p == '\r' || *p == '\n')) return false;
  const int64_t x = e - frac;
  double v = double(w);  // exact: w < 10^15 < 2^53
  if (x >= 0 && x <= 22) v *= kPow10[x];
  else if (x < 0 && x >= -22) v /= kPow10[-x];
  else if (w != 0) return false;
  out = neg ? -v : v;
  q = p;
  return true;
}

// Parses the lines in [p, end) (end is just past a '\n'); sets part.bad on anything unusual.
inline void parse_range(const char* p, const char* end, const Job& job, Part& part) {
  // capacity: every entry line takes at least 4 bytes ("1 1\n"), at most job.entries lines count,
  // and a mirrored entry stores two triplets (Big commits only the pages written)
  const int64_t lines = std::min<int64_t>((end - p) / 4 + 1, job.entries + 1);
  const size_t cap = size_t(lines) * (job.mirror != 0 ? 2 : 1);
  try {  // (inside an OpenMP region: nothing may throw out of here)
    part.r.alloc(cap);
    part.c.alloc(cap);
    if (!job.pattern) part.v.alloc(cap);
  } catch (const Fallback&) {
    part.bad = true;
    return;
  }
  int32_t* R = part.r.p;
  int32_t* C = part.c.p;
  double* V = part.v.p;
  int64_t n = 0, count = 0;
  const int64_t limit = lines;
  auto index = [&](const char*& q, int64_t& out) -> bool {
    const char* s = q;
    int64_t x = 0;
    while (unsigned(*q - '0') <= 9u && q - s < 12) x = x * 10 + (*q++ - '0');
    out = x;
    return q > s && unsigned(*q - '0') > 9u;
  };
  auto bad = [&] { part.bad = true; part.n = n; part.count = count; };
  int misses = 0, skip = 0;  // fast_value misses in a row; values left to from_chars before trying again
  while (p < end) {
    while (blank(*p)) ++p;
    if (*p == '\n' || *p == '\r' || *p == '%') {
      p = static_cast<const char*>(std::memchr(p, '\n', size_t(end - p))) + 1;
      continue;
    }
    if (count >= limit) return bad();  // more entries than the size line declares: the slow path says where
    int64_t r, c;
    if (!index(p, r) || !blank(*p)) return bad();
    while (blank(*p)) ++p;
    if (!index(p, c)) return bad();
    double v = 1;
    if (!job.pattern) {
      if (!blank(*p)) return bad();
      while (blank(*p)) ++p;
      bool dotted = false, fast = false;
      if (skip > 0) --skip;
      else if (fast_value(p, v, dotted)) fast = true, misses = 0;
      else if (++misses == 8) skip = 1024, misses = 0;  // full-precision files: stop scanning twice
      if (!fast) {
        const char* s = p;
        if (*s == '+' || *s == '-') ++s;
        if (!(unsigned(*s - '0') <= 9u || *s == '.')) return bad();  // inf/nan, a second sign: the slow path
        if (*p == '+') ++p;
        auto res = std::from_chars(p, end, v);
        if (res.ec != std::errc()) return bad();  // bad syntax, or out of range (the slow path decides)
        dotted = false;
        if (job.integer)
          for (const char* t = p; t < res.ptr; ++t)
            if (*t == '.' || *t == 'e' || *t == 'E') dotted = true;
        p = res.ptr;
      }
      if (job.integer && dotted) return bad();
    }
    while (blank(*p) || *p == '\r') ++p;
    if (*p != '\n') return bad();
    ++p;
    if (r < 1 || r > job.rows || c < 1 || c > job.cols) return bad();
    --r; --c;
    ++count;
    if (job.mirror != 0) {
      if (r < c) return bad();
      if (r != c) {
        R[n] = int32_t(c); C[n] = int32_t(r);
        if (!job.pattern) V[n] = job.mirror * v;
        ++n;
      } else if (job.mirror < 0 && v != 0) return bad();
    }
    R[n] = int32_t(r); C[n] = int32_t(c);
    if (!job.pattern) V[n] = v;
    ++n;
  }
  part.n = n;
  part.count = count;
}

struct Mapped {
  const char* data = nullptr;
  size_t size = 0;
  explicit Mapped(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) throw Fallback(path + ": cannot open");
    struct stat st{};
    ::fstat(fd, &st);
    size = size_t(st.st_size);
    if (size > 0) {
      void* m = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
      if (m == MAP_FAILED) { ::close(fd); throw Fallback(path + ": cannot map"); }
      ::madvise(m, size, MADV_SEQUENTIAL);
      data = static_cast<const char*>(m);
    }
    ::close(fd);
  }
  ~Mapped() { if (data) ::munmap(const_cast<char*>(data), size); }
};

// Sorts one row by column (stable) and sums duplicates; returns the new length.
inline int64_t canonical_row(int32_t* col, double* val, int64_t n, std::vector<std::pair<int32_t, int64_t>>& tmp, std::vector<double>& vt) {
  bool sorted = true;
  for (int64_t k = 1; k < n && sorted; ++k) sorted = col[k - 1] < col[k];
  if (sorted) return n;
  tmp.resize(size_t(n));
  vt.assign(val, val + n);
  for (int64_t k = 0; k < n; ++k) tmp[size_t(k)] = {col[k], k};
  std::stable_sort(tmp.begin(), tmp.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  int64_t out = 0;
  for (int64_t k = 0; k < n; ++k) {
    const int32_t c = tmp[size_t(k)].first;
    const double v = vt[size_t(tmp[size_t(k)].second)];
    if (out > 0 && col[out - 1] == c) val[out - 1] += v;
    else { col[out] = c; val[out] = v; ++out; }
  }
  return out;
}

inline void write_all(FILE* f, const void* p, size_t n, const std::string& path) {
  if (n && std::fwrite(p, 1, n, f) != n) throw std::runtime_error(path + ": write failed");
}

// Writes one canonical CSR matrix as .spb (f64 values; int32 indices unless nnz needs int64).
inline void write_csr_spb(const std::string& path, int64_t rows, int64_t cols, const std::vector<int64_t>& row_ptr,
                          const int32_t* col, const double* val, int64_t nnz) {
  const int ib = nnz > 0x7fffffffLL ? 8 : 4;
  auto pad8 = [](uint64_t n) { return (n + 7) & ~uint64_t(7); };
  const uint64_t total = 32 + 24 + pad8(uint64_t(rows + 1) * ib) + pad8(uint64_t(nnz) * ib) + pad8(uint64_t(nnz) * 8);
  unsigned char head[56] = {0};
  std::memcpy(head, "SPBM", 4);
  uint32_t ver = 1, count = 1;
  std::memcpy(head + 4, &ver, 4);
  std::memcpy(head + 8, &count, 4);
  head[12] = uint8_t(ib);
  head[13] = 2;
  std::memcpy(head + 24, &total, 8);
  uint64_t dims[3] = {uint64_t(rows), uint64_t(cols), uint64_t(nnz)};
  std::memcpy(head + 32, dims, 24);
  const std::string tmp = path + "." + std::to_string(::getpid()) + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw std::runtime_error(path + ": cannot open for writing");
  try {
    static const unsigned char zeros[8] = {0};
    write_all(f, head, 56, path);
    if (ib == 4) {
      std::vector<int32_t> rp(row_ptr.begin(), row_ptr.end());
      write_all(f, rp.data(), rp.size() * 4, path);
      write_all(f, zeros, pad8(rp.size() * 4) - rp.size() * 4, path);
      write_all(f, col, size_t(nnz) * 4, path);
      write_all(f, zeros, pad8(uint64_t(nnz) * 4) - uint64_t(nnz) * 4, path);
    } else {
      write_all(f, row_ptr.data(), row_ptr.size() * 8, path);
      std::vector<int64_t> c64(col, col + nnz);
      write_all(f, c64.data(), size_t(nnz) * 8, path);
    }
    write_all(f, val, size_t(nnz) * 8, path);
    if (std::fclose(f) != 0) { f = nullptr; throw std::runtime_error(path + ": write failed"); }
    f = nullptr;
    if (std::rename(tmp.c_str(), path.c_str()) != 0) throw std::runtime_error(path + ": cannot rename the temporary file");
  } catch (...) {
    if (f) std::fclose(f);
    std::remove(tmp.c_str());
    throw;
  }
}

inline void mtx_to_spb(const Job& job) {
  Mapped file(job.input);
  if (job.offset > file.size) throw Fallback("offset past the end of the file");
  const char* base = file.data;
  const char* begin = base + job.offset;
  const char* stop = base + file.size;
  // the last line may lack its '\n': parse a copy of it with one appended
  const char* last_nl = begin;
  for (const char* q = stop; q > begin; --q)
    if (q[-1] == '\n') { last_nl = q; break; }
  std::string tail(last_nl, stop);
  if (!tail.empty()) tail.push_back('\n');
  const int T = std::max(1, omp_get_max_threads());
  std::vector<const char*> cuts(size_t(T) + 1, last_nl);
  cuts[0] = begin;
  for (int t = 1; t < T; ++t) {
    const char* at = begin + (last_nl - begin) * t / T;
    at = std::max(at, cuts[size_t(t - 1)]);
    const void* nl = at < last_nl ? std::memchr(at, '\n', size_t(last_nl - at)) : nullptr;
    cuts[size_t(t)] = nl ? static_cast<const char*>(nl) + 1 : last_nl;
  }
  std::vector<Part> parts(size_t(T) + 1);
#pragma omp parallel for schedule(static, 1) num_threads(T)
  for (int t = 0; t < T; ++t) parse_range(cuts[size_t(t)], cuts[size_t(t + 1)], job, parts[size_t(t)]);
  if (!tail.empty()) parse_range(tail.data(), tail.data() + tail.size(), job, parts[size_t(T)]);
  int64_t count = 0, nnz = 0;
  for (const Part& p : parts) {
    if (p.bad) throw Fallback("unusual line");
    count += p.count;
    nnz += p.n;
  }
  if (count != job.entries) throw Fallback("entry count differs from the size line");
  // CSR by a stable counting sort in two cache-friendly passes: first the entries go into row
  // blocks (a few hundred sequential streams per thread), then each block is scattered into its
  // rows, whose slots now lie close together. Parts are taken in file order, so rows keep it.
  const int64_t rows = job.rows;
  const size_t P = parts.size();
  int shift = 0;
  while ((rows >> shift) > 512) ++shift;
  const size_t B = size_t(rows >> shift) + 1;
  std::vector<std::vector<int64_t>> start(P, std::vector<int64_t>(B, 0));
#pragma omp parallel for schedule(static, 1) num_threads(T)
  for (int64_t w = 0; w < int64_t(P); ++w)
    for (int64_t k = 0; k < parts[size_t(w)].n; ++k) ++start[size_t(w)][size_t(parts[size_t(w)].r[size_t(k)] >> shift)];
  std::vector<int64_t> block(B + 1, 0);
  {
    int64_t at = 0;
    for (size_t b = 0; b < B; ++b) {
      block[b] = at;
      for (size_t w = 0; w < P; ++w) {
        const int64_t n = start[w][b];
        start[w][b] = at;
        at += n;
      }
    }
    block[B] = at;
  }
  Big<int32_t> tr(size_t(nnz) + 1), tc(size_t(nnz) + 1);
  Big<double> tv(size_t(nnz) + 1);
#pragma omp parallel for schedule(static, 1) num_threads(T)
  for (int64_t w = 0; w < int64_t(P); ++w) {
    Part& p = parts[size_t(w)];
    std::vector<int64_t>& next = start[size_t(w)];
    for (size_t k = 0; k < size_t(p.n); ++k) {
      const int64_t d = next[size_t(p.r[k] >> shift)]++;
      tr[size_t(d)] = p.r[k];
      tc[size_t(d)] = p.c[k];
      tv[size_t(d)] = job.pattern ? 1.0 : p.v[k];
    }
    p.r.release();
    p.c.release();
    p.v.release();
  }
  std::vector<int64_t> row_ptr(static_cast<size_t>(rows) + 1, 0);
#pragma omp parallel for schedule(dynamic, 1) num_threads(T)
  for (int64_t b = 0; b < int64_t(B); ++b)
    for (int64_t d = block[size_t(b)]; d < block[size_t(b) + 1]; ++d) ++row_ptr[size_t(tr[size_t(d)]) + 1];
  for (int64_t r = 0; r < rows; ++r) row_ptr[size_t(r) + 1] += row_ptr[size_t(r)];
  // uninitialised: every slot is written by the scatter below
  Big<int32_t> col_buf(size_t(nnz) + 1);
  Big<double> val_buf(size_t(nnz) + 1);
  int32_t* col = col_buf.p;
  double* val = val_buf.p;
  {
    std::vector<int64_t> next(row_ptr.begin(), row_ptr.end() - 1);
#pragma omp parallel for schedule(dynamic, 1) num_threads(T)
    for (int64_t b = 0; b < int64_t(B); ++b)
      for (int64_t d = block[size_t(b)]; d < block[size_t(b) + 1]; ++d) {
        const int64_t dst = next[size_t(tr[size_t(d)])]++;
        col[dst] = tc[size_t(d)];
        val[dst] = tv[size_t(d)];
      }
  }
  tr.release();
  tc.release();
  tv.release();
  // sort rows that need it and sum duplicates (rows keep their place; compacted afterwards)
  std::vector<int64_t> len(static_cast<size_t>(rows));
  bool shrunk = false;
#pragma omp parallel num_threads(T)
  {
    std::vector<std::pair<int32_t, int64_t>> tmp;
    std::vector<double> vt;
    bool mine = false;
#pragma omp for schedule(dynamic, 4096)
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t s = row_ptr[size_t(r)], n = row_ptr[size_t(r) + 1] - s;
      len[size_t(r)] = canonical_row(col + s, val + s, n, tmp, vt);
      mine |= len[size_t(r)] != n;
    }
    if (mine) {
#pragma omp critical
      shrunk = true;
    }
  }
  if (shrunk) {
    int64_t out = 0;
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t s = row_ptr[size_t(r)];
      row_ptr[size_t(r)] = out;
      std::memmove(col + out, col + s, size_t(len[size_t(r)]) * 4);
      std::memmove(val + out, val + s, size_t(len[size_t(r)]) * 8);
      out += len[size_t(r)];
    }
    row_ptr[size_t(rows)] = out;
    nnz = out;
  }
  write_csr_spb(job.output, rows, job.cols, row_ptr, col, val, nnz);
}

}  // namespace spb::mtx
