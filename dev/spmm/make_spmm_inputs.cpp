// Writes the .spb batches the SpMM GPU checks and sweeps use (dev/spmm/spmm_dev.sh):
//   make_spmm_inputs OUTDIR
// Square random matrices with exactly nnz/row distinct columns per row, values in [-1, 1], plus odd
// batches (dim 1, empty rows, matrices without nonzeros, rectangular, mixed sizes).
// Build: g++ -std=c++17 -O2 -I. dev/spmm/make_spmm_inputs.cpp -o /tmp/mkin
#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>
#include "cuda/common/binfmt.hpp"

using spb::Csr;

static double unit(std::mt19937_64& g) { return double(g() >> 11) * (2.0 / 9007199254740992.0) - 1.0; }

// rows x cols, each row gets nnz_row distinct sorted columns (rows listed in `empty` get none).
static Csr random_csr(std::mt19937_64& g, int rows, int cols, int nnz_row, const std::vector<int>& empty = {}) {
  Csr c;
  c.rows = rows; c.cols = cols;
  c.row_ptr.push_back(0);
  std::vector<int64_t> pick;
  for (int r = 0; r < rows; ++r) {
    pick.clear();
    if (std::find(empty.begin(), empty.end(), r) == empty.end()) {
      while (int(pick.size()) < std::min(nnz_row, cols)) {
        int64_t x = int64_t(g() % uint64_t(cols));
        if (std::find(pick.begin(), pick.end(), x) == pick.end()) pick.push_back(x);
      }
      std::sort(pick.begin(), pick.end());
    }
    for (int64_t x : pick) { c.col_idx.push_back(x); c.values.push_back(unit(g)); }
    c.row_ptr.push_back(int64_t(c.col_idx.size()));
  }
  return c;
}

static std::vector<Csr> uniform(uint64_t seed, int batch, int dim, int nnz_row) {
  std::mt19937_64 g(seed);
  std::vector<Csr> v;
  for (int i = 0; i < batch; ++i) v.push_back(random_csr(g, dim, dim, nnz_row));
  return v;
}

static std::vector<Csr> mixed(uint64_t seed, int batch, int dmin, int dmax, int nmin, int nmax) {
  std::mt19937_64 g(seed);
  std::vector<Csr> v;
  for (int i = 0; i < batch; ++i) {
    int d = dmin + int(g() % uint64_t(dmax - dmin + 1)), n = nmin + int(g() % uint64_t(nmax - nmin + 1));
    v.push_back(random_csr(g, d, d, n));
  }
  return v;
}

int main(int argc, char** argv) {
  if (argc != 2) { std::fprintf(stderr, "usage: make_spmm_inputs OUTDIR\n"); return 2; }
  const std::string d = argv[1];
  auto put = [&](const std::string& name, const std::vector<Csr>& v) { spb::write_spb(d + "/" + name + ".spb", v, 4, 2); std::printf("%s: %zu matrices\n", name.c_str(), v.size()); };
  put("b100_d64_n3", uniform(1, 100, 64, 3));
  put("b100_d256_n3", uniform(2, 100, 256, 3));
  put("b10000_d64_n3", uniform(3, 10000, 64, 3));
  put("b1_d64_n3", uniform(4, 1, 64, 3));
  put("b50_d50_n2", uniform(5, 50, 50, 2));
  put("b100_d50_n3", uniform(6, 100, 50, 3));
  put("mixed_b100", mixed(7, 100, 32, 256, 1, 5));
  // Paper Fig. 7 grid: dims 32/64/128 at nnz/row 3, nnz/row 1/5 at dim 64, batch 50 at dim 64.
  put("b100_d32_n3", uniform(11, 100, 32, 3));
  put("b100_d128_n3", uniform(12, 100, 128, 3));
  put("b100_d64_n1", uniform(13, 100, 64, 1));
  put("b100_d64_n5", uniform(14, 100, 64, 5));
  put("b50_d64_n3", uniform(15, 50, 64, 3));
  put("b4_d1000_n5", uniform(8, 4, 1000, 5));
  // Odd batch: dim 1 (with and without its nonzero), empty rows, nnz 0 inside a batch, rectangular.
  std::mt19937_64 g(9);
  std::vector<Csr> odd;
  odd.push_back(random_csr(g, 1, 1, 1));
  odd.push_back(random_csr(g, 1, 1, 0));
  odd.push_back(random_csr(g, 20, 20, 3, {0, 1, 7, 19}));
  odd.push_back(random_csr(g, 16, 16, 0));
  odd.push_back(random_csr(g, 3, 40, 5));
  odd.push_back(random_csr(g, 37, 5, 2));
  odd.push_back(random_csr(g, 64, 64, 5));
  put("odd", odd);
  put("dim1_b10", uniform(10, 10, 1, 1));
  return 0;
}
