// Writes the SpGEMM test and benchmark matrices as .spb files (f64 values, int32 indices) into a folder:
// the issue-4 set (stencils, 2-D grid, uniform, R-MAT) and the odd cases (empty rows, all-empty, 1x1,
// a row that overflows every shared table, rectangular A*B, more columns than one symbolic chunk).
// Usage: spgemm_gen OUTDIR NAME|small|all (one matrix, the odd cases, or everything). Deterministic.
#include <algorithm>
#include <functional>
#include <cstdio>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>
#include "cuda/common/binfmt.hpp"
#include "cuda/common/csr_build.hpp"
#include "cuda/common/reference.hpp"

namespace {

using spb::Csr;
using Rng = std::mt19937_64;

double val(Rng& r) { return std::uniform_real_distribution<double>(-1.0, 1.0)(r); }

// Rows given as (sorted, distinct) column lists.
Csr from_rows(int64_t rows, int64_t cols, std::vector<std::vector<int64_t>>& adj, Rng& r) {
  return spb::csr_from_rows(rows, cols, adj, [&] { return val(r); });
}

Csr stencil(int dims, int64_t n, bool full, Rng& r) {  // full: 9/27-point, else 5/7-point
  const int64_t N = dims == 2 ? n * n : n * n * n;
  std::vector<std::vector<int64_t>> adj(N);
  for (int64_t i = 0; i < N; ++i) {
    int64_t x = i % n, y = (i / n) % n, z = dims == 3 ? i / (n * n) : 0;
    for (int dz = (dims == 3 ? -1 : 0); dz <= (dims == 3 ? 1 : 0); ++dz)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          if (!full && (std::abs(dx) + std::abs(dy) + std::abs(dz)) > 1) continue;
          int64_t X = x + dx, Y = y + dy, Z = z + dz;
          if (X < 0 || Y < 0 || Z < 0 || X >= n || Y >= n || Z >= n) continue;
          adj[i].push_back(dims == 3 ? (Z * n + Y) * n + X : Y * n + X);
        }
  }
  return from_rows(N, N, adj, r);
}

// Each row gets `per_row` distinct random columns (rows listed in `only` get `big` of them; empty_every>0
// leaves every k-th row empty).
Csr random_rows(int64_t rows, int64_t cols, int per_row, Rng& r, int empty_every = 0, std::vector<std::pair<int64_t, int>> big = {}) {
  std::vector<std::vector<int64_t>> adj(rows);
  std::uniform_int_distribution<int64_t> col(0, cols - 1);
  for (int64_t i = 0; i < rows; ++i) {
    int k = per_row;
    for (auto& b : big) if (b.first == i) k = b.second;
    if (empty_every && i % empty_every == 0) k = 0;
    k = int(std::min<int64_t>(k, cols));
    if (int64_t(k) * 4 > cols) {  // dense row: partial Fisher-Yates over all columns
      std::vector<int64_t> all(cols);
      for (int64_t j = 0; j < cols; ++j) all[j] = j;
      for (int t = 0; t < k; ++t) std::swap(all[t], all[t + std::uniform_int_distribution<int64_t>(0, cols - 1 - t)(r)]);
      adj[i].assign(all.begin(), all.begin() + k);
    } else {
      std::unordered_set<int64_t> seen;
      while (int(seen.size()) < k) { int64_t j = col(r); if (seen.insert(j).second) adj[i].push_back(j); }
    }
  }
  return from_rows(rows, cols, adj, r);
}

Csr rmat(int scale, int ef, double a, double b, double c, Rng& r) {
  const int64_t n = int64_t(1) << scale, edges = n * ef;
  std::vector<std::vector<int64_t>> adj(n);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int64_t e = 0; e < edges; ++e) {
    int64_t i = 0, j = 0;
    for (int l = 0; l < scale; ++l) {
      const double p = u(r);
      const int q = p < a ? 0 : p < a + b ? 1 : p < a + b + c ? 2 : 3;
      i = 2 * i + (q >> 1); j = 2 * j + (q & 1);
    }
    adj[i].push_back(j);
  }
  return from_rows(n, n, adj, r);
}

void put(const std::string& dir, const std::string& name, const Csr& c) {
  spb::write_spb(dir + "/" + name + ".spb", {c}, 4, 2);
  std::printf("%-16s %8lld x %-8lld nnz %10lld  products(A*A) %lld\n", name.c_str(), (long long)c.rows, (long long)c.cols, (long long)c.nnz(),
              c.rows == c.cols ? (long long)spb::spgemm_products(c, c) : -1LL);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) { std::fprintf(stderr, "usage: spgemm_gen OUTDIR NAME|small|all\n"); return 2; }
  const std::string dir = argv[1], want = argv[2];
  struct Item { const char* name; bool big; Csr (*make)(Rng&); };
  const std::vector<Item> items = {
      // odd cases
      {"one", false, [](Rng& r) { return random_rows(1, 1, 1, r); }},
      {"all_empty", false, [](Rng& r) { return random_rows(100, 100, 0, r); }},
      {"empty_rows", false, [](Rng& r) { return random_rows(1000, 1000, 5, r, 2); }},
      {"dense_small", false, [](Rng& r) { return random_rows(300, 300, 150, r); }},
      {"big_row", false, [](Rng& r) { return random_rows(40000, 40000, 8, r, 0, {{0, 4000}, {1, 20000}, {39999, 40000}}); }},
      {"rect_a", false, [](Rng& r) { return random_rows(5000, 3000, 10, r, 7); }},
      {"rect_b", false, [](Rng& r) { return random_rows(3000, 7000, 6, r); }},
      {"wide_a", false, [](Rng& r) { return random_rows(300, 700000, 3, r, 0, {{0, 20000}, {5, 200000}}); }},
      {"wide_b", false, [](Rng& r) { return random_rows(700000, 600000, 2, r); }},
      {"stencil3d_12", false, [](Rng& r) { return stencil(3, 12, true, r); }},
      {"rmat10", false, [](Rng& r) { return rmat(10, 8, 0.57, 0.19, 0.19, r); }},
      // dense rows of long B rows over 2 chunks in f64 (8192 columns a chunk): row_pieces with chunk bounds
      {"rmat14", false, [](Rng& r) { return rmat(14, 8, 0.57, 0.19, 0.19, r); }},
      // issue-4 benchmark set
      {"stencil3d_40", true, [](Rng& r) { return stencil(3, 40, true, r); }},
      {"stencil3d_64", true, [](Rng& r) { return stencil(3, 64, true, r); }},
      {"grid2d_1000", true, [](Rng& r) { return stencil(2, 1000, false, r); }},
      {"uniform_200k", true, [](Rng& r) { return random_rows(200000, 200000, 8, r); }},
      {"rmat16", true, [](Rng& r) { return rmat(16, 8, 0.57, 0.19, 0.19, r); }},
      {"rmat18", true, [](Rng& r) { return rmat(18, 4, 0.57, 0.19, 0.19, r); }},
  };
  bool any = false;
  for (const Item& it : items) {
    if (want != it.name && !(want == "small" && !it.big) && want != "all") continue;
    Rng r(std::hash<std::string>{}(it.name) ^ 20261122u);  // seeded per matrix: same bytes whatever the order
    put(dir, it.name, it.make(r));
    any = true;
  }
  if (!any) { std::fprintf(stderr, "spgemm_gen: unknown matrix '%s'\n", want.c_str()); return 2; }
  return 0;
}
