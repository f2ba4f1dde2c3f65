// Runs the hash SpGEMM (cuda/spgemm/, host code and kernels, rewritten by emu_prepare.py for cuda_emu.h) on the CPU
// and checks every result against the CPU float64 reference: the odd cases and structure classes of issue 9 at small
// sizes, f32 and f64, `hash`, `hash-opt`, and hash-opt with the long-row path forced on small rows
// (SPB_SPGEMM_LONG=N). New allocations are poisoned (NaN values, -1 indices), as in the GPU driver's first run.
// Build (see scripts/check-emu.sh): python3 emu_prepare.py REPO OUT && g++ -std=c++20 -O1 -I OUT -I OUT/cuda/common spgemm_emu.cpp
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>
#include "cuda/spgemm/hash_spgemm.cuh"
#include "cuda/common/spgemm_check.hpp"
#include "cuda/common/csr_build.hpp"

using namespace spb;
using namespace spb::spgemm;

namespace {
using Rng = std::mt19937_64;
double val(Rng& r) { return std::uniform_real_distribution<double>(-1, 1)(r); }

Csr from_rows(int64_t rows, int64_t cols, std::vector<std::vector<int64_t>> adj, Rng& r) {
  return csr_from_rows(rows, cols, adj, [&] { return val(r); });
}
int64_t uni(Rng& r, int64_t n) { return int64_t(r() % uint64_t(n)); }

// Test matrices: name, A (C = A * A unless b is given).
struct Case { std::string name; Csr a, b; bool ab = false; };
std::vector<Case> cases() {
  Rng r(11);
  std::vector<Case> out;
  auto add = [&](const std::string& n, Csr a) { out.push_back({n, std::move(a), Csr{}, false}); };
  {  // banded plus two full rows and a full column (long rows; one column every row reaches)
    const int64_t n = 2500; std::vector<std::vector<int64_t>> adj(n);
    for (int64_t i = 0; i < n; ++i) for (int64_t j = std::max<int64_t>(0, i - 1); j <= std::min(n - 1, i + 1); ++j) adj[size_t(i)].push_back(j);
    for (int64_t j = 0; j < n; ++j) { adj[17].push_back(j); adj[2400].push_back(j); }
    for (int64_t i = 0; i < n; ++i) adj[size_t(i)].push_back(1333);
    add("band+full-rows+col", from_rows(n, n, adj, r));
  }
  {  // permutation (every row direct)
    const int64_t n = 3000; std::vector<int64_t> p(n); for (int64_t i = 0; i < n; ++i) p[size_t(i)] = i; std::shuffle(p.begin(), p.end(), r);
    std::vector<std::vector<int64_t>> adj(n); for (int64_t i = 0; i < n; ++i) adj[size_t(i)].push_back(p[size_t(i)]);
    add("permutation", from_rows(n, n, adj, r));
  }
  {  // near-empty: one long row, one long column; the long row's 2n products span several windows of the long path
     // (kLongWindow 4096), one B row of n entries cut across them
    const int64_t n = 5000; std::vector<std::vector<int64_t>> adj(n);
    for (int64_t j = 0; j < n; ++j) adj[250].push_back(j);
    for (int64_t i = 0; i < n; ++i) adj[size_t(i)].push_back(77);
    add("near-empty", from_rows(n, n, adj, r));
  }
  {  // mixed: empty rows, one-nonzero rows reaching short and long B rows, hub rows, two-nonzero rows
    const int64_t n = 900; std::vector<std::vector<int64_t>> adj(n);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t k = i % 6;
      if (k == 0) continue;
      if (k == 1) { for (int j = 0; j < 120; ++j) adj[size_t(i)].push_back(uni(r, n)); continue; }
      if (k == 2) { adj[size_t(i)].push_back(uni(r, n)); adj[size_t(i)].push_back(uni(r, n)); continue; }
      adj[size_t(i)].push_back(uni(r, n));
    }
    add("mixed-direct", from_rows(n, n, adj, r));
  }
  {  // power-law-ish out-degrees and hub columns
    const int64_t n = 800; std::vector<std::vector<int64_t>> adj(n);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t d = std::min<int64_t>(n, 1 + int64_t(2.0 / std::pow(1.0 - std::uniform_real_distribution<double>(0, 0.999)(r), 1.2)));
      for (int64_t k = 0; k < d; ++k) adj[size_t(i)].push_back(std::min<int64_t>(n - 1, int64_t(n * std::pow(std::uniform_real_distribution<double>(0, 1)(r), 3))));
    }
    add("powerlaw", from_rows(n, n, adj, r));
  }
  {  // rectangular A * B with a long row in A
    std::vector<std::vector<int64_t>> a(300), b(500);
    for (int64_t i = 0; i < 300; ++i) for (int k = 0; k < 3; ++k) a[size_t(i)].push_back(uni(r, 500));
    for (int64_t j = 0; j < 500; ++j) a[5].push_back(j);
    for (int64_t i = 0; i < 500; ++i) for (int k = 0; k < 1 + int(i % 9); ++k) b[size_t(i)].push_back(uni(r, 1300));
    out.push_back({"rect-long-row", from_rows(300, 500, a, r), from_rows(500, 1300, b, r), true});
  }
  {  // FEM-like: 27-point 3-D stencil of dense 3x3 blocks (rows of a node share their columns: the merged puts), and a
     // 2-D 9-point one of 2x2 blocks with a tenth of the block entries dropped (patterns that only partly match)
    auto blocks = [&](int dims, int64_t g, int64_t b, double drop) {
      const int64_t nodes = dims == 3 ? g * g * g : g * g;
      std::vector<std::vector<int64_t>> adj(size_t(nodes * b));
      for (int64_t u = 0; u < nodes; ++u) {
        const int64_t x = u % g, y = (u / g) % g, z = dims == 3 ? u / (g * g) : 0;
        for (int64_t dz = (dims == 3 ? -1 : 0); dz <= (dims == 3 ? 1 : 0); ++dz)
          for (int64_t dy = -1; dy <= 1; ++dy)
            for (int64_t dx = -1; dx <= 1; ++dx) {
              const int64_t X = x + dx, Y = y + dy, Z = z + dz;
              if (X < 0 || Y < 0 || Z < 0 || X >= g || Y >= g || Z >= g) continue;
              const int64_t v = X + g * (Y + g * Z);
              for (int64_t i = 0; i < b; ++i)
                for (int64_t j = 0; j < b; ++j)
                  if (drop == 0 || std::uniform_real_distribution<double>(0, 1)(r) >= drop) adj[size_t(u * b + i)].push_back(v * b + j);
            }
      }
      return from_rows(nodes * b, nodes * b, adj, r);
    };
    add("fem3d-b3", blocks(3, 6, 3, 0));
    add("fem2d-b2-dropped", blocks(2, 14, 2, 0.1));
  }
  {  // 1 x 1 and an all-empty matrix
    add("1x1", from_rows(1, 1, {{0}}, r));
    add("all-empty", from_rows(50, 50, std::vector<std::vector<int64_t>>(50), r));
  }
  return out;
}

template <typename T>
DevCsr<T> to_dev(const Csr& c) {
  DevCsr<T> d; d.rows = int(c.rows); d.cols = int(c.cols); d.nnz = c.nnz();
  d.rp = static_cast<int*>(std::malloc(sizeof(int) * (size_t(c.rows) + 1)));
  d.ci = static_cast<int*>(std::malloc(sizeof(int) * std::max<size_t>(1, c.col_idx.size())));
  d.v = static_cast<T*>(std::malloc(sizeof(T) * std::max<size_t>(1, c.values.size())));
  for (size_t i = 0; i < c.row_ptr.size(); ++i) d.rp[i] = int(c.row_ptr[i]);
  for (size_t i = 0; i < c.col_idx.size(); ++i) { d.ci[i] = int(c.col_idx[i]); d.v[i] = T(c.values[i]); }
  return d;
}

template <typename T>
int run_all(const char* label, bool only_opt) {
  int bad = 0, n = 0;
  cudaDeviceProp prop;
  for (Case cs : cases()) {
    Csr& A = cs.a; Csr& B = cs.ab ? cs.b : cs.a;
    round_values<T>(A); if (cs.ab) round_values<T>(B);
    const SpgemmReference ref = make_reference(A, B, ReferenceSpec{}, int(sizeof(T)));
    DevCsr<T> dA = to_dev<T>(A), dB = cs.ab ? to_dev<T>(B) : dA;
    for (const bool opt : {false, true}) {
      if (!opt && only_opt) continue;
      HashSpgemm<T> h(prop, opt ? opt_options() : paper_options(), nullptr);
      TrackingAllocator al(nullptr);
      al.set_poison(true);
      DevCsr<T> C;
      std::string what;
      try {
        h.run(dA, dB, C, al, nullptr);
        const SpgemmCheck c = check_spgemm(ref, C.rows, C.rp, C.ci, C.v, default_tol(sizeof(T) == 4));
        if (!c.passed) what = c.detail;
      } catch (const std::exception& e) { what = std::string("error: ") + e.what(); }
      ++n;
      std::printf("%-4s %-9s %-20s %s\n", label, opt ? "hash-opt" : "hash", cs.name.c_str(), what.empty() ? "ok" : what.c_str());
      if (!what.empty()) ++bad;
    }
  }
  std::printf("%s: %d passed, %d failed\n", label, n - bad, bad);
  return bad;
}
}  // namespace

// spgemm_emu [--long N]: hash and hash-opt in f32; with --long, hash-opt alone in f64 with every row of more than N
// nonzeros of A (or of more than 500 products) sent down its long-row path (SPB_SPGEMM_LONG=N) and the symbolic
// estimates divided by 64 (SPB_SPGEMM_EST_DIV).
int main(int argc, char** argv) {
  const bool lng = argc == 3 && std::string(argv[1]) == "--long";
  // rows of few nonzeros but more than 500 products covering an eighth of the columns (a full row's neighbours) too
  // and the symbolic estimates divided by 64, so that estimated tables fill and k_tb counts those rows in bitmaps
  if (lng) { setenv("SPB_SPGEMM_LONG", argv[2], 1); setenv("SPB_SPGEMM_LONG_PROD", "500", 1); setenv("SPB_SPGEMM_EST_DIV", "64", 1); }
  const char* l = std::getenv("SPB_SPGEMM_LONG");
  std::printf("SPB_SPGEMM_LONG=%s\n", l ? l : "(unset: default threshold)");
  // CI time: the default configuration in f32, the long-row path in f64 (each pass a few seconds of emulation, a few minutes before the fibers)
  const int bad = lng ? run_all<double>("f64", true) : run_all<float>("f32", false);
  return bad ? 1 : 0;
}
