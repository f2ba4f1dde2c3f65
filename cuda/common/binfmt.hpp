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
}  // namespace detail

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
  auto idx = [&](size_t o) -> int64_t {
    if (out.index_bytes == 4) { int32_t v; std::memcpy(&v, &buf[o], 4); return v; }
    int64_t v; std::memcpy(&v, &buf[o], 8); return v;
  };
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
    for (int64_t i = 0; i <= c.rows; ++i) c.row_ptr[i] = idx(off + size_t(i) * out.index_bytes);
    off += detail::pad8(rp);
    for (uint64_t i = 0; i < nnz; ++i) c.col_idx[i] = idx(off + size_t(i) * out.index_bytes);
    off += detail::pad8(ci);
    for (uint64_t i = 0; i < nnz; ++i) {
      if (vb == 4) { float v; std::memcpy(&v, &buf[off + i * 4], 4); c.values[i] = v; }
      else { double v; std::memcpy(&v, &buf[off + i * 8], 8); c.values[i] = v; }
    }
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

// Writes canonical CSR matrices (used by native tests and dumps). value_type 1 = f32, 2 = f64.
inline void write_spb(const std::string& path, const std::vector<Csr>& mats, int index_bytes = 4, int value_type = 2) {
  std::vector<unsigned char> b(32, 0);
  auto put = [&](const void* p, size_t n) { const unsigned char* c = static_cast<const unsigned char*>(p); b.insert(b.end(), c, c + n); };
  auto pad = [&]() { while (b.size() % 8) b.push_back(0); };
  for (const Csr& c : mats) {
    uint64_t h[3] = {uint64_t(c.rows), uint64_t(c.cols), uint64_t(c.nnz())};
    put(h, 24);
    for (int64_t v : c.row_ptr) { if (index_bytes == 4) { int32_t x = int32_t(v); put(&x, 4); } else put(&v, 8); }
    pad();
    for (int64_t v : c.col_idx) { if (index_bytes == 4) { int32_t x = int32_t(v); put(&x, 4); } else put(&v, 8); }
    pad();
    for (double v : c.values) { if (value_type == 1) { float x = float(v); put(&x, 4); } else put(&v, 8); }
    pad();
  }
  std::memcpy(&b[0], "SPBM", 4);
  uint32_t ver = 1, count = uint32_t(mats.size());
  std::memcpy(&b[4], &ver, 4); std::memcpy(&b[8], &count, 4);
  b[12] = uint8_t(index_bytes); b[13] = uint8_t(value_type);
  uint64_t total = b.size(); std::memcpy(&b[24], &total, 8);
  std::string tmp = path + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw std::runtime_error(path + ": cannot open for writing");
  bool ok = std::fwrite(b.data(), 1, b.size(), f) == b.size();
  ok = (std::fclose(f) == 0) && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) { std::remove(tmp.c_str()); throw std::runtime_error(path + ": write failed"); }
}

}  // namespace spb
