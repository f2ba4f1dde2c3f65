// Reader/writer of the .spb binary matrix format (docs/binary-format.md). Plain C++17, no CUDA.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace spb {

// Host CSR matrix; indices held as int64 so one type serves int32 and int64 files.
struct Csr {
  int64_t rows = 0, cols = 0;
  std::vector<int64_t> row_ptr;  // rows + 1
  std::vector<int64_t> col_idx;  // nnz
  std::vector<double> values;    // nnz (float32 files are widened on read)
  int64_t nnz() const { return rows ? row_ptr[rows] : 0; }
};

struct SpbFile {
  int index_bytes = 4;
  int value_type = 1;  // 1 = f32, 2 = f64
  std::vector<Csr> mats;
};

namespace detail {
inline void need(bool ok, const std::string& path, const std::string& what) {
  if (!ok) throw std::runtime_error(path + ": " + what);
}
inline size_t pad8(size_t n) { return (n + 7) & ~size_t(7); }
// n indices of 4 or 8 bytes at src into int64 (one branch a call, not one an element: reading a 2 GB reference cache
// element by element took seconds)
inline void widen_indices(const unsigned char* src, int bytes, size_t n, int64_t* out) {
  if (bytes == 8) { if (n) std::memcpy(out, src, n * 8); return; }
  for (size_t i = 0; i < n; ++i) { int32_t v; std::memcpy(&v, src + i * 4, 4); out[i] = v; }
}
}  // namespace detail

// A CSR matrix to write, by pointers (the reference cache writes C's pattern twice, with values and with their
// absolute sums, without copying it).
struct CsrView {
  int64_t rows = 0, cols = 0, nnz = 0;
  const int64_t* row_ptr = nullptr;
  const int64_t* col_idx = nullptr;
  const double* values = nullptr;
};
inline CsrView view_of(const Csr& c) { return CsrView{c.rows, c.cols, c.nnz(), c.row_ptr.data(), c.col_idx.data(), c.values.data()}; }

inline SpbFile read_spb(const std::string& path, bool validate = true) {
  using detail::need;
  FILE* f = std::fopen(path.c_str(), "rb");
  need(f != nullptr, path, "cannot open file");
  std::fseek(f, 0, SEEK_END);
  long long size = std::ftell(f);
  std::fseek(f, 0, SEEK_SET);
  std::vector<unsigned char> buf(size > 0 ? size_t(size) : 0);
  size_t got = buf.empty() ? 0 : std::fread(buf.data(), 1, buf.size(), f);
  std::fclose(f);
  need(got == buf.size(), path, "short read");
  need(buf.size() >= 32, path, "too small to be an .spb file (no 32-byte header)");
  need(std::memcmp(buf.data(), "SPBM", 4) == 0, path, "bad magic (not an .spb file)");
  auto u32 = [&](size_t off) { uint32_t v; std::memcpy(&v, &buf[off], 4); return v; };
  auto u64 = [&](size_t off) { uint64_t v; std::memcpy(&v, &buf[off], 8); return v; };
  need(u32(4) == 1, path, "unsupported .spb version " + std::to_string(u32(4)));
  SpbFile out;
  uint32_t count = u32(8);
  out.index_bytes = buf[12];
  out.value_type = buf[13];
  need(out.index_bytes == 4 || out.index_bytes == 8, path, "index_bytes must be 4 or 8");
  need(out.value_type == 1 || out.value_type == 2, path, "value_type must be 1 (f32) or 2 (f64)");
  need(u64(24) == buf.size(), path, "file_bytes in header (" + std::to_string(u64(24)) + ") differs from file size (" +
                                        std::to_string(buf.size()) + "): truncated or corrupt");
  size_t off = 32;
  const size_t vb = out.value_type == 1 ? 4 : 8;
  out.mats.resize(count);
  for (uint32_t m = 0; m < count; ++m) {
    const std::string where = "matrix " + std::to_string(m);
    need(off + 24 <= buf.size(), path, where + ": header past end of file");
    Csr& c = out.mats[m];
    c.rows = int64_t(u64(off)); c.cols = int64_t(u64(off + 8)); uint64_t nnz = u64(off + 16);
    off += 24;
    size_t rp = size_t(c.rows + 1) * out.index_bytes, ci = size_t(nnz) * out.index_bytes, va = size_t(nnz) * vb;
    need(off + detail::pad8(rp) + detail::pad8(ci) + detail::pad8(va) <= buf.size(), path, where + ": arrays past end of file");
    c.row_ptr.resize(c.rows + 1); c.col_idx.resize(nnz); c.values.resize(nnz);
    detail::widen_indices(&buf[off], out.index_bytes, size_t(c.rows) + 1, c.row_ptr.data());
    off += detail::pad8(rp);
    detail::widen_indices(&buf[off], out.index_bytes, size_t(nnz), c.col_idx.data());
    off += detail::pad8(ci);
    if (vb == 4) { for (uint64_t i = 0; i < nnz; ++i) { float v; std::memcpy(&v, &buf[off + i * 4], 4); c.values[i] = v; } }
    else if (nnz) std::memcpy(c.values.data(), &buf[off], size_t(nnz) * 8);
    off += detail::pad8(va);
    if (validate) {
      need(c.row_ptr[0] == 0 && c.row_ptr[c.rows] == int64_t(nnz), path, where + ": row_ptr must start at 0 and end at nnz");
      for (int64_t r = 0; r < c.rows; ++r) {
        need(c.row_ptr[r] <= c.row_ptr[r + 1], path, where + ": row_ptr decreases at row " + std::to_string(r));
        for (int64_t k = c.row_ptr[r]; k < c.row_ptr[r + 1]; ++k) {
          need(c.col_idx[k] >= 0 && c.col_idx[k] < c.cols, path, where + ": column index out of range in row " + std::to_string(r));
          need(k == c.row_ptr[r] || c.col_idx[k - 1] < c.col_idx[k], path, where + ": columns not strictly increasing in row " + std::to_string(r));
        }
      }
    }
  }
  need(off == buf.size(), path, "trailing bytes after the last matrix");
  return out;
}

// Writes canonical CSR matrices (used by native tests, dumps and the SpGEMM reference cache). value_type 1 = f32,
// 2 = f64. Streams through a 1 MiB buffer to PATH.tmp, renamed into place once complete (a failed write leaves no
// file); growing one byte vector element by element took 34 s for a 2 GB reference.
inline void write_spb(const std::string& path, const std::vector<CsrView>& mats, int index_bytes = 4, int value_type = 2) {
  const size_t ib = size_t(index_bytes), vb = value_type == 1 ? 4 : 8;
  uint64_t total = 32;
  for (const CsrView& c : mats) total += 24 + detail::pad8(size_t(c.rows + 1) * ib) + detail::pad8(size_t(c.nnz) * ib) + detail::pad8(size_t(c.nnz) * vb);
  const std::string tmp = path + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw std::runtime_error(path + ": cannot open for writing");
  std::vector<unsigned char> b;
  b.reserve(size_t(1) << 20);
  bool ok = true;
  auto flush = [&] { if (!b.empty()) ok = ok && std::fwrite(b.data(), 1, b.size(), f) == b.size(); b.clear(); };
  auto put = [&](const void* p, size_t n) {
    if (b.size() + n > b.capacity()) flush();
    const unsigned char* c = static_cast<const unsigned char*>(p); b.insert(b.end(), c, c + n);
  };
  auto pad = [&](size_t n) { static const unsigned char z[8] = {}; put(z, detail::pad8(n) - n); };
  unsigned char head[32] = {};
  std::memcpy(head, "SPBM", 4);
  const uint32_t ver = 1, count = uint32_t(mats.size());
  std::memcpy(head + 4, &ver, 4); std::memcpy(head + 8, &count, 4);
  head[12] = uint8_t(index_bytes); head[13] = uint8_t(value_type);
  std::memcpy(head + 24, &total, 8);
  put(head, 32);
  auto indices = [&](const int64_t* v, size_t n) {
    for (size_t i = 0; i < n; ++i) { if (ib == 4) { const int32_t x = int32_t(v[i]); put(&x, 4); } else put(&v[i], 8); }
    pad(n * ib);
  };
  for (const CsrView& c : mats) {
    const uint64_t h[3] = {uint64_t(c.rows), uint64_t(c.cols), uint64_t(c.nnz)};
    put(h, 24);
    indices(c.row_ptr, size_t(c.rows) + 1);
    indices(c.col_idx, size_t(c.nnz));
    for (int64_t i = 0; i < c.nnz; ++i) { if (vb == 4) { const float x = float(c.values[i]); put(&x, 4); } else put(&c.values[i], 8); }
    pad(size_t(c.nnz) * vb);
  }
  flush();
  ok = (std::fclose(f) == 0) && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) { std::remove(tmp.c_str()); throw std::runtime_error(path + ": write failed"); }
}
inline void write_spb(const std::string& path, const std::vector<Csr>& mats, int index_bytes = 4, int value_type = 2) {
  std::vector<CsrView> v;
  for (const Csr& c : mats) v.push_back(view_of(c));
  write_spb(path, v, index_bytes, value_type);
}

}  // namespace spb
