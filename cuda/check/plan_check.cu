// The SpMM planner on the host, no GPU (scripts/check-emu.sh, CI): each line of stdin, "precision layout batch dim
// nnz_row nb choice strips", is a uniform batch (batch matrices of dim x dim, nnz_row nonzeros a row, as
// `spbench gen` makes them) with what the H100 recorded for it (a baseline's result file, or
// cuda/check/plan_cells_measured.txt): `auto`'s choice (info.choice) and batched-slab's
// strips a warp (info.strips_a_warp; "-" where slab did not run). This builds the batch as the driver does
// (cuda/spmm/host_batch.cuh), runs choose_ours and batched-slab's plan on an H100's figures, and prints every
// line where either differs, so that a change of the planner that moves a choice the baseline recorded fails
// until the baseline is rerun. B's values are no input of the planner, only its size: the batch is built
// at nb 1 and B's size set to nb's.
#include <cstdio>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>
#include "../common/half_types.cuh"
#include "../spmm/methods.cuh"
#include "../spmm/host_batch.cuh"
using namespace spb;

namespace {

DeviceInfo h100() {  // NVIDIA H100 80GB HBM3 as DeviceInfo::query reads it
  DeviceInfo d;
  d.prop.major = 9, d.prop.minor = 0, d.prop.multiProcessorCount = 132, d.prop.l2CacheSize = 52428800;
  d.prop.sharedMemPerBlockOptin = 232448, d.prop.sharedMemPerMultiprocessor = 233472, d.prop.maxThreadsPerMultiProcessor = 2048;
  d.prop.maxBlocksPerMultiProcessor = 32, d.prop.totalGlobalMem = size_t(85017493504ull);
  d.smem_optin = 232448, d.smem_sm = 233472, d.sms = 132, d.max_threads_sm = 2048, d.max_blocks_sm = 32;
  return d;
}

std::vector<Csr> uniform(int batch, int dim, int z, uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<Csr> A(static_cast<size_t>(batch));
  std::vector<char> used(static_cast<size_t>(dim));
  for (Csr& c : A) {
    c.rows = c.cols = dim;
    c.row_ptr.assign(1, 0);
    for (int r = 0; r < dim; ++r) {
      std::fill(used.begin(), used.end(), 0);
      for (int n = 0; n < z;) {
        const int j = int(g() % uint64_t(dim));
        if (!used[size_t(j)]) used[size_t(j)] = 1, ++n;
      }
      for (int j = 0; j < dim; ++j)
        if (used[size_t(j)]) c.col_idx.push_back(j), c.values.push_back(1.0);
      c.row_ptr.push_back(int64_t(c.col_idx.size()));
    }
  }
  return A;
}

template <typename T>
std::pair<std::string, std::string> plan(const std::vector<Csr>& A, int nb, Layout layout, const DeviceInfo& dev) {
  SpmmBatchData<T> g = build_spmm_batch<T>(A, 1, layout == Layout::Row ? BatchLayout::Row : BatchLayout::Col, 1);
  HostBatch<T> h = make_batch(g);
  h.nb = nb;
  h.B = Pinned<T>();
  h.B.n = size_t(h.total_cols) * size_t(nb);
  const SlabPlan sp = slab_plan(h, dev);
  return {choose_ours(h, dev).method, sp.rows ? std::to_string(sp.ms) : "-"};
}

}  // namespace

int main() {
  const DeviceInfo dev = h100();
  std::string line;
  int n = 0, bad = 0;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string prec, layout, choice, strips;
    int batch = 0, dim = 0, z = 0, nb = 0;
    if (!(in >> prec >> layout >> batch >> dim >> z >> nb >> choice >> strips)) continue;
    const std::vector<Csr> A = uniform(batch, dim, z, 1);
    const Layout L = layout == "col" ? Layout::Col : Layout::Row;
    const auto got = prec == "f64" ? plan<double>(A, nb, L, dev) : prec == "f16" ? plan<__half>(A, nb, L, dev)
                     : prec == "bf16" ? plan<__nv_bfloat16>(A, nb, L, dev) : plan<float>(A, nb, L, dev);
    ++n;
    if (got.first != choice || (strips != "-" && got.second != strips)) {
      ++bad;
      std::printf("plan check: %s %s batch %d dim %d nnz/row %d nb %d: planner %s, strips %s; the H100 recorded %s, strips %s\n", prec.c_str(),
                  layout.c_str(), batch, dim, z, nb, got.first.c_str(), got.second.c_str(), choice.c_str(), strips.c_str());
    }
  }
  std::printf("plan check: %d batches, %d differ from what the H100 recorded\n", n, bad);
  return bad || n == 0 ? 1 : 0;
}
