// Development only: writes SpGEMM matrices of the structure classes of issue 9 as .spb (f64, int32), for A/B
// checks of kernel changes on the GPU machine without Node. The product's own generators (spbench gen) make the
// suite's instances; these are other instances of the same classes (other sizes and seeds), for generality.
// Usage: classes_gen OUTDIR NAME [SEED]   (names: see main). Deterministic for a seed.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>
#include "../../cuda/common/binfmt.hpp"
#include "../../cuda/common/csr_build.hpp"

namespace {
using spb::Csr;
using Rng = std::mt19937_64;
double val(Rng& r) { return std::uniform_real_distribution<double>(-1.0, 1.0)(r); }

Csr from_rows(int64_t rows, int64_t cols, std::vector<std::vector<int64_t>>& adj, Rng& r) {
  return spb::csr_from_rows(rows, cols, adj, [&] { return val(r); });
}
int64_t uni(Rng& r, int64_t n) { return std::uniform_int_distribution<int64_t>(0, n - 1)(r); }

// band [i - lo, i + hi] plus long rows and columns at random places
Csr longrow(int64_t n, int lo, int hi, int nrows, int ncols, Rng& r) {
  std::vector<std::vector<int64_t>> adj(n);
  if (lo >= 0) for (int64_t i = 0; i < n; ++i) for (int64_t j = std::max<int64_t>(0, i - lo); j <= std::min(n - 1, i + hi); ++j) adj[i].push_back(j);
  for (int k = 0; k < nrows; ++k) { int64_t i = uni(r, n); adj[i].resize(0); for (int64_t j = 0; j < n; ++j) adj[i].push_back(j); }
  for (int k = 0; k < ncols; ++k) { int64_t j = uni(r, n); for (int64_t i = 0; i < n; ++i) adj[i].push_back(j); }
  return from_rows(n, n, adj, r);
}
Csr perm(int64_t n, Rng& r) {
  std::vector<int64_t> p(n); for (int64_t i = 0; i < n; ++i) p[i] = i;
  std::shuffle(p.begin(), p.end(), r);
  Csr c; c.rows = c.cols = n; c.row_ptr.resize(n + 1);
  for (int64_t i = 0; i <= n; ++i) c.row_ptr[i] = i;
  c.col_idx = p; c.values.resize(n); for (auto& v : c.values) v = val(r);
  return c;
}
// Zipf-like out-degree (Pareto, exponent alpha) in [1, maxd], mean ~avg; columns from a skewed popularity law.
Csr powerlaw(int64_t n, double avg, int64_t maxd, double alpha, Rng& r) {
  std::vector<int64_t> colperm(n); for (int64_t i = 0; i < n; ++i) colperm[i] = i; std::shuffle(colperm.begin(), colperm.end(), r);
  std::vector<std::vector<int64_t>> adj(n);
  std::uniform_real_distribution<double> U(0, 1);
  const double xm = avg * (alpha - 2) / (alpha - 1);
  for (int64_t i = 0; i < n; ++i) {
    int64_t d = int64_t(std::min<double>(maxd, std::max(1.0, xm / std::pow(1 - U(r), 1.0 / (alpha - 1)))));
    for (int64_t k = 0; k < d; ++k) {
      const double u = U(r);
      const int64_t c = std::min<int64_t>(n - 1, int64_t(n * std::pow(u, 3.0)));  // popularity skew: low ranks dense
      adj[i].push_back(colperm[c]);
    }
  }
  return from_rows(n, n, adj, r);
}
Csr irregular(int64_t n, int mn, int mx, double far, Rng& r) {
  std::vector<std::vector<int64_t>> adj(n);
  std::uniform_real_distribution<double> U(0, 1);
  for (int64_t i = 0; i < n; ++i) {
    int len = mn + int(uni(r, mx - mn + 1));
    for (int k = 0; k < len; ++k) {
      int64_t j = U(r) < far ? uni(r, n) : std::clamp<int64_t>(i - 2 * mx + uni(r, 4 * mx + 1), 0, n - 1);
      adj[i].push_back(j);
    }
  }
  return from_rows(n, n, adj, r);
}
Csr multimodal(int64_t n, std::vector<int> lens, std::vector<double> w, Rng& r) {
  std::discrete_distribution<int> D(w.begin(), w.end());
  std::vector<std::vector<int64_t>> adj(n);
  for (int64_t i = 0; i < n; ++i) { int len = lens[D(r)]; for (int k = 0; k < len; ++k) adj[i].push_back(uni(r, n)); }
  return from_rows(n, n, adj, r);
}
Csr circuit(int64_t n, int k, int hubs, int hub_size, Rng& r) {
  std::vector<std::vector<int64_t>> adj(n);
  for (int64_t i = 0; i < n; ++i) {
    adj[i].push_back(i);
    for (int j = 1; j < k; ++j) adj[i].push_back(j % 2 ? std::clamp<int64_t>(i - 50 + uni(r, 101), 0, n - 1) : uni(r, n));
  }
  for (int h = 0; h < hubs; ++h) {
    int64_t hub = uni(r, n);
    for (int s = 0; s < hub_size; ++s) { int64_t o = uni(r, n); adj[hub].push_back(o); adj[o].push_back(hub); }
  }
  return from_rows(n, n, adj, r);
}
Csr fem(int dims, int64_t g, int b, Rng& r) {
  const int64_t pts = dims == 2 ? g * g : g * g * g, n = pts * b;
  std::vector<std::vector<int64_t>> adj(n);
  for (int64_t p = 0; p < pts; ++p) {
    int64_t x = p % g, y = (p / g) % g, z = dims == 3 ? p / (g * g) : 0;
    std::vector<int64_t> nb;
    for (int dz = (dims == 3 ? -1 : 0); dz <= (dims == 3 ? 1 : 0); ++dz)
      for (int dy = -1; dy <= 1; ++dy) for (int dx = -1; dx <= 1; ++dx) {
        int64_t X = x + dx, Y = y + dy, Z = z + dz;
        if (X < 0 || Y < 0 || Z < 0 || X >= g || Y >= g || Z >= g) continue;
        nb.push_back(X + g * (Y + g * Z));
      }
    for (int i = 0; i < b; ++i) for (int64_t q : nb) for (int j = 0; j < b; ++j) adj[p * b + i].push_back(q * b + j);
  }
  return from_rows(n, n, adj, r);
}
// rows of one nonzero whose B rows are long and short, rows of no product, rows of several nonzeros
Csr direct_mix(int64_t n, Rng& r) {
  std::vector<std::vector<int64_t>> adj(n);
  for (int64_t i = 0; i < n; ++i) {
    int64_t k = i % 7;
    if (k == 0) continue;                                  // empty row
    if (k == 1) { for (int j = 0; j < 300; ++j) adj[i].push_back(uni(r, n)); continue; }  // long B row target
    if (k == 2) { adj[i].push_back(uni(r, n)); adj[i].push_back(uni(r, n)); continue; }
    adj[i].push_back(uni(r, n));                           // one nonzero
  }
  return from_rows(n, n, adj, r);
}
// 2-D 5-point grid n x n (other instances of the old suite's grid2d_1000)
Csr grid2d(int64_t n, Rng& r) {
  std::vector<std::vector<int64_t>> adj(n * n);
  for (int64_t y = 0; y < n; ++y)
    for (int64_t x = 0; x < n; ++x) {
      auto& a = adj[y * n + x];
      if (y > 0) a.push_back((y - 1) * n + x);
      if (x > 0) a.push_back(y * n + x - 1);
      a.push_back(y * n + x);
      if (x + 1 < n) a.push_back(y * n + x + 1);
      if (y + 1 < n) a.push_back((y + 1) * n + x);
    }
  return from_rows(n * n, n * n, adj, r);
}
// k distinct random columns a row (other instances of uniform_200k)
Csr uniform(int64_t n, int k, Rng& r) {
  std::vector<std::vector<int64_t>> adj(n);
  for (int64_t i = 0; i < n; ++i) while (int(adj[i].size()) < k) { const int64_t c = uni(r, n); if (std::find(adj[i].begin(), adj[i].end(), c) == adj[i].end()) adj[i].push_back(c); }
  return from_rows(n, n, adj, r);
}
// rows of 3-10 nonzeros, odd rows at random columns (few duplicate products), even rows in a band of 13 around the
// diagonal (many): products 9-100 a row, across the PWARP and WARP levels, with and without duplicate products
Csr warp_mix(int64_t n, Rng& r) {
  std::vector<std::vector<int64_t>> adj(n);
  for (int64_t i = 0; i < n; ++i) {
    const int k = 3 + int(i % 8);
    for (int j = 0; j < k; ++j) adj[i].push_back(i % 2 ? uni(r, n) : std::min(n - 1, std::max<int64_t>(0, i - 6 + uni(r, 13))));
  }
  return from_rows(n, n, adj, r);
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) { std::fprintf(stderr, "usage: classes_gen OUTDIR NAME [SEED]\n"); return 2; }
  const std::string dir = argv[1], name = argv[2];
  Rng r(argc > 3 ? std::stoull(argv[3]) : 7);
  Csr c;
  if (name == "tri150k_long1") c = longrow(150000, 1, 1, 1, 0, r);
  else if (name == "tri200k_long3") c = longrow(200000, 1, 1, 3, 0, r);
  else if (name == "bidiag1100k_long1") c = longrow(1100000, 0, 1, 1, 0, r);
  else if (name == "empty100k_rowcol") c = longrow(100000, -1, 0, 1, 1, r);
  else if (name == "empty300k_rowcol2") c = longrow(300000, -1, 0, 2, 2, r);
  else if (name == "perm3m") c = perm(3000000, r);
  else if (name == "perm1m") c = perm(1000000, r);
  else if (name == "powerlaw400k") c = powerlaw(400000, 8, 20000, 2.1, r);
  else if (name == "powerlaw150k") c = powerlaw(150000, 12, 8000, 2.3, r);
  else if (name == "irregular300k") c = irregular(300000, 2, 11, 0.05, r);
  else if (name == "multimodal200k") c = multimodal(200000, {2, 24, 600}, {60, 39, 1}, r);
  else if (name == "multimodal120k") c = multimodal(120000, {3, 40, 900}, {70, 29, 1}, r);
  else if (name == "circuit500k") c = circuit(500000, 3, 30, 4000, r);
  else if (name == "fem3d_b3_24") c = fem(3, 24, 3, r);
  else if (name == "fem3d_b3_32") c = fem(3, 32, 3, r);
  else if (name == "fem2d_b4_200") c = fem(2, 200, 4, r);
  else if (name == "fem3d_b3_8") c = fem(3, 8, 3, r);
  else if (name == "fem3d_b6_12") c = fem(3, 12, 6, r);
  else if (name == "fem3d_b2_40") c = fem(3, 40, 2, r);
  else if (name == "longrow_small") c = longrow(5000, 1, 1, 2, 1, r);
  else if (name == "direct_mix") c = direct_mix(20000, r);
  else if (name == "warp_mix") c = warp_mix(4000, r);
  else if (name == "grid2d_1400") c = grid2d(1400, r);
  else if (name == "uniform500k_6") c = uniform(500000, 6, r);
  else if (name == "uniform100k_12") c = uniform(100000, 12, r);
  else if (name == "irregular500k") c = irregular(500000, 3, 9, 0.02, r);
  else if (name == "one_row") { std::vector<std::vector<int64_t>> a(1, std::vector<int64_t>{0}); c = from_rows(1, 1, a, r); }
  else { std::fprintf(stderr, "unknown matrix %s\n", name.c_str()); return 2; }
  spb::write_spb(dir + "/" + name + ".spb", {c}, 4, 2);
  std::printf("%s rows %lld nnz %lld\n", name.c_str(), (long long)c.rows, (long long)c.nnz());
  return 0;
}
