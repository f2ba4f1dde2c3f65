// Fast path of the Matrix Market reader, shared by two front ends: the Node-API addon
// (mtx_addon.cpp: parses in the spbench process into the arrays it returns) and `spbench-cpu
// mtx2spb` (writes canonical CSR as .spb: float64 values, int32 indices while nnz fits). Both parse
// the entry lines of a coordinate file (the TypeScript side has read the banner and size line with
// the one grammar of src/matrix/mtx-read.ts and passes their figures) with threads over byte ranges.
//
// One pass over the text: each thread appends its entries to per-row-block buckets (Buckets); then
// each block is counted by row and put in its rows' places right inside the .spb, a shared mapping of
// the output file (assemble_file), with rows sorted and duplicates summed only where a row needs it.
// Memory first touched is the main cost on the VM this was tuned on (see reports/cpu/parse-bench.txt):
// about 14 bytes an entry of buckets plus the .spb itself, nothing else of that size.
//
// It accepts a strict subset of that grammar and never reports a line: on anything unusual (a bad
// token, inf/nan, an index out of range, a wrong entry count) it throws Fallback (mtx2spb exits with
// kFallback, the addon returns undefined) and the TypeScript reader parses the file again, giving
// the exact error with its line number.
#pragma once
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "mtx_number.hpp"

namespace spb::mtx {

constexpr int kFallback = 4;  // exit code: not parsed here, let the TypeScript reader do it

struct Fallback : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// SPBENCH_MTX_TIMING=1: the time of each phase on stderr (for profiling; off by default).
struct Phases {
  using Clock = std::chrono::steady_clock;
  bool on = std::getenv("SPBENCH_MTX_TIMING") != nullptr;
  Clock::time_point last = Clock::now();
  void mark(const char* what) {
    if (!on) return;
    const Clock::time_point t = Clock::now();
    std::fprintf(stderr, "mtx parse %-10s %7.1f ms\n", what, std::chrono::duration<double, std::milli>(t - last).count());
    last = t;
  }
};

// Runs f(t) for t = 0..T-1 on T threads (the caller's is thread 0); false when any f returned false
// or threw. A thread that cannot be started runs its part on the caller's thread instead.
template <class F>
bool on_threads(int T, F&& f) {
  std::atomic<bool> ok{true};
  auto body = [&](int t) {
    try {
      if (!f(t)) ok = false;
    } catch (...) {
      ok = false;
    }
  };
  std::vector<std::thread> pool;
  std::vector<int> inline_parts;
  for (int t = 1; t < T; ++t) {
    try {
      pool.emplace_back(body, t);
    } catch (...) {
      inline_parts.push_back(t);
    }
  }
  body(0);
  for (int t : inline_parts) body(t);
  for (std::thread& th : pool) th.join();
  return ok;
}

struct Job {
  std::string input, output;  // (output: only for mtx_to_spb)
  int threads = 1;
  uint64_t offset = 0;  // first byte after the size line
  int64_t rows = 0, cols = 0, entries = 0;
  bool pattern = false, integer = false;
  int mirror = 0;  // 0 general, 1 symmetric/hermitian, -1 skew-symmetric
};

// A large scratch array of anonymous memory: only the pages written are committed, so capacity
// can be a generous upper bound. (No transparent huge pages: on the 2-core VM this was measured on,
// first touching memory asked for with MADV_HUGEPAGE ran at ~0.3 GB/s against ~1.4 GB/s for 4 KB
// pages; see reports/cpu/parse-bench.txt.)
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

// The entries of one thread's piece, bucketed by row block (rows r >> shift): per block a chain of
// chunks of K entries (values, columns, rows within the block: three arrays a chunk), cut from an
// arena of the thread's own. Appending is sequential in a few hundred streams, which the caches
// hold; only the pages written are committed.
struct Buckets {
  int shift = 0;
  size_t B = 0, K = 0, chunk_bytes = 0;
  bool pattern = false;
  Big<char> arena;
  size_t used = 0, capacity = 0;         // chunks
  std::vector<char*> cur;                // per block: its last chunk (nullptr: none yet)
  std::vector<uint32_t> fill;            // per block: entries in its last chunk
  std::vector<std::vector<char*>> chain; // per block: its chunks in order
  int64_t lines = 0;                     // entry lines
  void init(int shift_, size_t B_, size_t K_, bool pattern_, int64_t max_entries) {
    shift = shift_;
    B = B_;
    K = K_;
    pattern = pattern_;
    chunk_bytes = K * ((pattern ? 0 : 8) + 4 + 2);
    capacity = size_t(max_entries) / K + B + 1;
    arena.alloc(capacity * chunk_bytes);
    cur.assign(B, nullptr);
    fill.assign(B, uint32_t(K));
    chain.assign(B, {});
  }
  double* values(char* ch) const { return reinterpret_cast<double*>(ch); }
  int32_t* cols(char* ch) const { return reinterpret_cast<int32_t*>(ch + (pattern ? 0 : 8 * K)); }
  uint16_t* rows(char* ch) const { return reinterpret_cast<uint16_t*>(ch + (pattern ? 0 : 8 * K) + 4 * K); }
  bool add(int64_t r, int64_t c, double v) {
    const size_t b = size_t(r) >> shift;
    uint32_t f = fill[b];
    char* ch = cur[b];
    if (f == K) {
      if (used == capacity) return false;  // (cannot happen: the capacity bounds the entries)
      ch = cur[b] = arena.p + used++ * chunk_bytes;
      chain[b].push_back(ch);
      f = 0;
    }
    if (!pattern) values(ch)[f] = v;
    cols(ch)[f] = int32_t(c);
    rows(ch)[f] = uint16_t(r & ((int64_t(1) << shift) - 1));
    fill[b] = f + 1;
    return true;
  }
  int64_t count(size_t b) const { return chain[b].empty() ? 0 : int64_t(chain[b].size() - 1) * int64_t(K) + fill[b]; }
  size_t length(size_t b, size_t k) const { return k + 1 == chain[b].size() ? fill[b] : K; }
};

// Parses the lines of [p, end) (end is just past a '\n') into the buckets; false on anything unusual.
// Nothing at or past hard_end (>= end) is read.
inline bool parse_piece(const char* p, const char* end, const char* hard_end, const Job& job, Buckets& out) {
  int misses = 0, skip = 0;  // scan_value misses in a row; values left to from_chars before trying again
  int64_t lines = out.lines;
  while (p < end) {
    while (blank(*p)) ++p;
    if (*p == '\n' || *p == '\r' || *p == '%') {
      p = static_cast<const char*>(std::memchr(p, '\n', size_t(end - p))) + 1;
      continue;
    }
    if (lines >= job.entries) return false;  // more entries than the size line declares: the slow path says where
    int64_t r, c;
    if (!scan_index(p, hard_end, r) || !blank(*p)) return false;
    while (blank(*p)) ++p;
    if (!scan_index(p, hard_end, c)) return false;
    double v = 1;
    if (!job.pattern) {
      if (!blank(*p)) return false;
      while (blank(*p)) ++p;
      bool dotted = false, fast = false;
      if (skip > 0) --skip;
      else if (scan_value(p, hard_end, v, dotted)) fast = true, misses = 0;
      else if (++misses == 8) skip = 1024, misses = 0;  // values it never takes: stop scanning twice
      if (!fast) {
        const char* s = p;
        if (*s == '+' || *s == '-') ++s;
        if (!(unsigned(*s - '0') <= 9u || *s == '.')) return false;  // inf/nan, a second sign: the slow path
        if (*p == '+') ++p;
        auto res = std::from_chars(p, end, v);
        if (res.ec != std::errc()) return false;  // bad syntax, or out of range (the slow path decides)
        dotted = false;
        if (job.integer)
          for (const char* t = p; t < res.ptr; ++t)
            if (*t == '.' || *t == 'e' || *t == 'E') dotted = true;
        p = res.ptr;
      }
      if (job.integer && dotted) return false;
    }
    while (blank(*p) || *p == '\r') ++p;
    if (*p != '\n') return false;
    ++p;
    if (r < 1 || r > job.rows || c < 1 || c > job.cols) return false;
    --r;
    --c;
    ++lines;
    if (job.mirror != 0) {
      if (r < c) return false;
      if (r != c) {
        if (!out.add(c, r, job.mirror * v)) return false;
      } else if (job.mirror < 0 && v != 0) {
        return false;
      }
    }
    if (!out.add(r, c, v)) return false;
  }
  out.lines = lines;
  return true;
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
      // (MAP_POPULATE was measured: no faster, it only moves the faults before the parse)
      void* m = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
      if (m == MAP_FAILED) { ::close(fd); throw Fallback(path + ": cannot map"); }
      data = static_cast<const char*>(m);
    }
    ::close(fd);
  }
  ~Mapped() { if (data) ::munmap(const_cast<char*>(data), size); }
};

// Sorts one row by column (stable) and sums duplicates; returns the new length.
template <class O>
int64_t canonical_row(O* col, double* val, int64_t n, std::vector<std::pair<O, int64_t>>& tmp, std::vector<double>& vt) {
  bool sorted = true;
  for (int64_t k = 1; k < n && sorted; ++k) sorted = col[k - 1] < col[k];
  if (sorted) return n;
  tmp.resize(size_t(n));
  vt.assign(val, val + n);
  for (int64_t k = 0; k < n; ++k) tmp[size_t(k)] = {col[k], k};
  std::stable_sort(tmp.begin(), tmp.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  int64_t out = 0;
  for (int64_t k = 0; k < n; ++k) {
    const O c = tmp[size_t(k)].first;
    const double v = vt[size_t(tmp[size_t(k)].second)];
    if (out > 0 && col[out - 1] == c) val[out - 1] += v;
    else { col[out] = c; val[out] = v; ++out; }
  }
  return out;
}

// The .spb being written: a temporary sibling of the output, renamed over it at the end. The CSR
// arrays are built in place in it: in a shared mapping of the file (its page cache pages are the
// arrays, nothing is copied), or where the file cannot be mapped, in anonymous memory written at
// the end (SPBENCH_MTX_OUT=write forces this, for measurements: on ext4 here the mapping took
// 0.75-0.79 s for the whole short-value run, write() 1.0-1.1 s).
struct OutFile {
  std::string path, tmp;
  int fd = -1;
  char* data = nullptr;
  size_t size = 0;
  bool mapped = false, done = false;
  OutFile(const std::string& p, size_t bytes) : path(p), tmp(p + "." + std::to_string(::getpid()) + ".tmp"), size(bytes) {
    fd = ::open(tmp.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) throw std::runtime_error(path + ": cannot open for writing");
    const char* mode = std::getenv("SPBENCH_MTX_OUT");
    if (!(mode && std::strcmp(mode, "write") == 0) && ::ftruncate(fd, off_t(size)) == 0) {
      // blocks reserved first: a full disk is then an error here, not a SIGBUS while writing the mapping
      if (::posix_fallocate(fd, 0, off_t(size)) == 0) {
        void* m = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (m != MAP_FAILED) { data = static_cast<char*>(m); mapped = true; return; }
      }
      if (::ftruncate(fd, 0) != 0) fail("write failed");
    }
    void* m = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) fail("out of memory");
    data = static_cast<char*>(m);
  }
  OutFile(const OutFile&) = delete;
  OutFile& operator=(const OutFile&) = delete;
  [[noreturn]] void fail(const std::string& what) { throw std::runtime_error(path + ": " + what); }
  // Keeps the first `bytes` and renames the file over the output.
  void finish(size_t bytes) {
    if (mapped) {
      ::munmap(data, size);
      data = nullptr;
      if (bytes != size && ::ftruncate(fd, off_t(bytes)) != 0) fail("write failed");
    } else {
      for (size_t at = 0; at < bytes;) {
        const ssize_t w = ::write(fd, data + at, bytes - at);
        if (w <= 0) fail("write failed");
        at += size_t(w);
      }
    }
    const int rc = ::close(fd);
    fd = -1;
    if (rc != 0) fail("write failed");
    if (std::rename(tmp.c_str(), path.c_str()) != 0) fail("cannot rename the temporary file");
    done = true;
  }
  ~OutFile() {
    if (data) ::munmap(data, size);
    if (fd >= 0) ::close(fd);
    if (!done) std::remove(tmp.c_str());
  }
};

inline uint64_t pad8(uint64_t n) { return (n + 7) & ~uint64_t(7); }

// Bytes of a one-matrix .spb with float64 values and `ib`-byte indices (cuda/common/binfmt.hpp).
inline uint64_t spb_bytes(int64_t rows, int64_t nnz, int ib) {
  return 32 + 24 + pad8(uint64_t(rows + 1) * ib) + pad8(uint64_t(nnz) * ib) + pad8(uint64_t(nnz) * 8);
}

// The CSR arrays inside the .spb: header (56 bytes), row_ptr, col, values (O: the index type).
template <class O>
struct Layout {
  char* base;
  int64_t rows, nnz;
  O* row_ptr() const { return reinterpret_cast<O*>(base + 56); }
  O* col() const { return reinterpret_cast<O*>(base + 56 + pad8(uint64_t(rows + 1) * sizeof(O))); }
  double* val() const { return reinterpret_cast<double*>(reinterpret_cast<char*>(col()) + pad8(uint64_t(nnz) * sizeof(O))); }
};

inline void write_header(char* head, int64_t rows, int64_t cols, int64_t nnz, int ib) {
  std::memset(head, 0, 56);
  std::memcpy(head, "SPBM", 4);
  const uint32_t ver = 1, count = 1;
  std::memcpy(head + 4, &ver, 4);
  std::memcpy(head + 8, &count, 4);
  head[12] = char(ib);
  head[13] = 2;  // float64 values
  const uint64_t total = spb_bytes(rows, nnz, ib);
  std::memcpy(head + 24, &total, 8);
  const uint64_t dims[3] = {uint64_t(rows), uint64_t(cols), uint64_t(nnz)};
  std::memcpy(head + 32, dims, 24);
}

// The pieces of the entry lines, one a thread, each cut just after a '\n'; the last line, when it
// lacks its '\n', is a copy with one appended, parsed after the last piece.
struct Ranges {
  std::vector<const char*> cuts;
  const char* stop;
  std::string tail;
  size_t tail_end = 0;
  Ranges(const char* begin, const char* stop_, int T) : stop(stop_) {
    const char* last_nl = begin;
    for (const char* q = stop; q > begin; --q)
      if (q[-1] == '\n') { last_nl = q; break; }
    tail.assign(last_nl, stop);
    if (!tail.empty()) tail.push_back('\n');
    tail_end = tail.size();
    tail.append(16, '\0');  // room for 8-byte loads
    cuts.assign(size_t(T) + 1, last_nl);
    cuts[0] = begin;
    for (int t = 1; t < T; ++t) {
      const char* at = begin + (last_nl - begin) * t / T;
      at = std::max(at, cuts[size_t(t - 1)]);
      const void* nl = at < last_nl ? std::memchr(at, '\n', size_t(last_nl - at)) : nullptr;
      cuts[size_t(t)] = nl ? static_cast<const char*>(nl) + 1 : last_nl;
    }
  }
  int pieces() const { return int(cuts.size()) - 1; }
  // f(begin, end, hard_end) on piece t's lines (the last piece: then on the tail); false as soon
  // as f is. hard_end: where the readable bytes end.
  template <class F>
  bool each(int t, F&& f) const {
    if (!f(cuts[size_t(t)], cuts[size_t(t) + 1], stop)) return false;
    if (t == pieces() - 1 && tail_end > 0) return f(tail.data(), tail.data() + tail_end, tail.data() + tail.size());
    return true;
  }
};
// Per-thread scratch of the assembly.
template <class O>
struct BlockScratch {
  std::vector<int64_t> pos;
  std::vector<std::pair<O, int64_t>> tmp;
  std::vector<double> vt;
};

// One block's entries (pieces in file order) counted by row and put in their rows' places in
// col/val (the block's region, which the caches hold); rows whose columns are not strictly
// increasing are then sorted and their duplicates summed (stable: equal columns add up in file
// order) and the block compacted. rp gets the R rows' starts, relative to col/val plus `base`.
// Returns the entries kept.
template <class O>
int64_t assemble_block(const std::vector<Buckets>& parts, size_t b, int64_t R, bool pattern, int64_t base, O* rp, O* col,
                       double* val, BlockScratch<O>& s) {
  std::vector<int64_t>& pos = s.pos;
  pos.assign(size_t(R) + 1, 0);
  for (const Buckets& p : parts)
    for (size_t k = 0; k < p.chain[b].size(); ++k) {
      const uint16_t* rl = p.rows(p.chain[b][k]);
      for (size_t j = 0, n = p.length(b, k); j < n; ++j) ++pos[size_t(rl[j]) + 1];
    }
  for (int64_t i = 0; i < R; ++i) pos[size_t(i) + 1] += pos[size_t(i)];
  const int64_t n = pos[size_t(R)];
  for (const Buckets& p : parts)
    for (size_t k = 0; k < p.chain[b].size(); ++k) {
      char* ch = p.chain[b][k];
      const uint16_t* rl = p.rows(ch);
      const int32_t* cl = p.cols(ch);
      const size_t len = p.length(b, k);
      if (pattern) {
        for (size_t j = 0; j < len; ++j) {
          const int64_t d = pos[rl[j]]++;
          col[d] = O(cl[j]);
          val[d] = 1.0;
        }
      } else {
        const double* vl = p.values(ch);
        for (size_t j = 0; j < len; ++j) {
          const int64_t d = pos[rl[j]]++;
          col[d] = O(cl[j]);
          val[d] = vl[j];
        }
      }
    }
  // pos[i] is now row i's end. Canonical already? (the usual case: column-major files give sorted rows)
  bool canonical = true;
  for (int64_t i = 0, k = 0; i < R && canonical; ++i) {
    const int64_t e = pos[size_t(i)];
    for (++k; k < e; ++k)
      if (!(col[k - 1] < col[k])) { canonical = false; break; }
    k = e;
  }
  if (canonical) {
    for (int64_t i = 0; i < R; ++i) rp[i] = O(base + (i ? pos[size_t(i) - 1] : 0));
    return n;
  }
  int64_t at = 0;
  for (int64_t i = 0; i < R; ++i) {
    const int64_t st = i ? pos[size_t(i) - 1] : 0;
    const int64_t m = canonical_row(col + st, val + st, pos[size_t(i)] - st, s.tmp, s.vt);
    rp[i] = O(base + at);
    if (at != st) {
      std::memmove(col + at, col + st, size_t(m) * sizeof(O));
      std::memmove(val + at, val + st, size_t(m) * sizeof(double));
    }
    at += m;
  }
  return at;
}

// The blocks' places: start[b] = entries of the blocks before b.
inline std::vector<int64_t> block_starts(const std::vector<Buckets>& parts) {
  const size_t B = parts[0].B;
  std::vector<int64_t> start(B + 1, 0);
  for (size_t b = 0; b < B; ++b) {
    int64_t n = 0;
    for (const Buckets& p : parts) n += p.count(b);
    start[b + 1] = start[b] + n;
  }
  return start;
}

// The entries of a file, parsed: per thread its buckets; nnz = the entries they hold (a mirrored
// line gives two).
struct Parsed {
  std::vector<Buckets> parts;
  int64_t nnz = 0;
};

// Parses the entry lines [begin, stop) on job.threads threads into row-block buckets; throws
// Fallback on anything unusual.
inline Parsed parse_entries(const Job& job, const char* begin, const char* stop) {
  const int T = std::max(1, job.threads);
  const Ranges ranges(begin, stop, T);
  // row blocks: about 512 (at most 65536 rows each, the rows within a block being 16-bit)
  int shift = 0;
  while ((job.rows - 1) >> shift >= 512 && shift < 16) ++shift;
  while ((job.rows - 1) >> shift >= int64_t(1) << 30) ++shift;  // (rows < 2^31: cannot happen)
  const size_t B = size_t(std::max<int64_t>(job.rows - 1, 0) >> shift) + 1;
  const int mult = job.mirror != 0 ? 2 : 1;
  size_t K = 1024;  // entries a chunk, fewer where the blocks are many and the entries few
  while (K > 64 && int64_t(K) * int64_t(B) * T * 4 > job.entries * mult) K /= 2;
  Parsed out;
  out.parts = std::vector<Buckets>(size_t(T));
  const bool ok = on_threads(T, [&](int t) {
    const int64_t bytes = (ranges.cuts[size_t(t) + 1] - ranges.cuts[size_t(t)]) + int64_t(t == T - 1 ? ranges.tail_end : 0);
    // every entry line takes at least 4 bytes ("1 1\n"), and a mirrored one gives two entries
    Buckets& mine = out.parts[size_t(t)];
    mine.init(shift, B, K, job.pattern, std::min<int64_t>(bytes / 4 + 1, job.entries) * mult);
    return ranges.each(t, [&](const char* a, const char* e, const char* h) { return parse_piece(a, e, h, job, mine); });
  });
  if (!ok) throw Fallback("unusual line");
  int64_t count = 0;
  for (const Buckets& p : out.parts) {
    count += p.lines;
    for (size_t b = 0; b < B; ++b) out.nnz += p.count(b);
  }
  if (count != job.entries) throw Fallback("entry count differs from the size line");
  return out;
}

// Canonical CSR from the buckets: each block assembled in its region of col/val (nnz places each,
// rp rows + 1), blocks in parallel; where summed duplicates shrank blocks, the blocks are then moved
// down, the columns within col and the values to values_at(final nnz) (col/val being regions of one
// file, the values' place depends on it). The buckets are released. Returns the final nnz and
// where the values are.
template <class O, class ValuesAt>
std::pair<int64_t, double*> assemble(const Job& job, Parsed& in, O* rp, O* col, double* val, ValuesAt&& values_at) {
  std::vector<Buckets>& parts = in.parts;
  const int T = int(parts.size());
  const int64_t rows = job.rows;
  const size_t B = parts[0].B;
  const int shift = parts[0].shift;
  const std::vector<int64_t> start = block_starts(parts);
  std::vector<int64_t> kept(B, 0);
  std::atomic<size_t> next{0};
  std::atomic<bool> shrunk{false};
  on_threads(T, [&](int) {
    BlockScratch<O> s;
    for (size_t b; (b = next++) < B;) {
      const int64_t r0 = int64_t(b) << shift;
      const int64_t R = std::min<int64_t>(rows - r0, int64_t(1) << shift);
      if (R <= 0) continue;
      kept[b] = assemble_block(parts, b, R, job.pattern, start[b], rp + r0, col + start[b], val + start[b], s);
      if (kept[b] != start[b + 1] - start[b]) shrunk = true;
    }
    return true;
  });
  for (Buckets& p : parts) p.arena.release();
  int64_t final_nnz = in.nnz;
  double* final_val = val;
  if (shrunk) {
    // the blocks move down, each to at or before its place, first the columns, then the values
    int64_t at = 0;
    for (size_t b = 0; b < B; ++b) {
      const int64_t s = start[b], n = kept[b];
      const int64_t r0 = int64_t(b) << shift, r1 = std::min<int64_t>(rows, (int64_t(b) + 1) << shift);
      for (int64_t r = r0; r < r1; ++r) rp[r] = O(int64_t(rp[r]) - s + at);
      std::memmove(col + at, col + s, size_t(n) * sizeof(O));
      at += n;
    }
    final_nnz = at;
    final_val = values_at(final_nnz);
    at = 0;
    for (size_t b = 0; b < B; ++b) {
      std::memmove(final_val + at, val + start[b], size_t(kept[b]) * sizeof(double));
      at += kept[b];
    }
  }
  rp[rows] = O(final_nnz);
  return {final_nnz, final_val};
}

// Writes the .spb: the CSR assembled right inside it (OutFile).
template <class O>
void assemble_file(const Job& job, Parsed& in, Phases& ph) {
  const int64_t rows = job.rows, nnz = in.nnz;
  constexpr int ib = int(sizeof(O));
  OutFile out(job.output, size_t(spb_bytes(rows, nnz, ib)));
  const Layout<O> at{out.data, rows, nnz};
  ph.mark("open");
  const int64_t final_nnz =
      assemble<O>(job, in, at.row_ptr(), at.col(), at.val(), [&](int64_t n) { return Layout<O>{out.data, rows, n}.val(); }).first;
  {  // the zero padding after row_ptr and col (the compaction may have left old columns there)
    const Layout<O> fin{out.data, rows, final_nnz};
    char* rp_end = reinterpret_cast<char*>(fin.row_ptr() + rows + 1);
    std::memset(rp_end, 0, size_t(reinterpret_cast<char*>(fin.col()) - rp_end));
    char* col_end = reinterpret_cast<char*>(fin.col() + final_nnz);
    std::memset(col_end, 0, size_t(reinterpret_cast<char*>(fin.val()) - col_end));
  }
  ph.mark("assemble");
  write_header(out.data, rows, job.cols, final_nnz, ib);
  out.finish(size_t(spb_bytes(rows, final_nnz, ib)));
  ph.mark("write");
}

// The entry lines of the mapped file (from job.offset on); throws Fallback when the offset is past its end.
inline std::pair<const char*, const char*> entry_lines(const Job& job, const Mapped& file) {
  if (job.offset > file.size) throw Fallback("offset past the end of the file");
  return {file.data + job.offset, file.data + file.size};
}

inline void mtx_to_spb(const Job& job) {
  Phases ph;
  Mapped file(job.input);
  const auto [begin, stop] = entry_lines(job, file);
  ph.mark("map");
  Parsed in = parse_entries(job, begin, stop);
  ph.mark("parse");
  if (in.nnz > 0x7fffffffLL) assemble_file<int64_t>(job, in, ph);
  else assemble_file<int32_t>(job, in, ph);
}

}  // namespace spb::mtx
