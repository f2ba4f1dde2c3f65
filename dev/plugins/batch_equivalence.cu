// Host-only cross-check (no GPU needed): the plugin runner's batch (cuda/common/spmm_batch.hpp) is the
// spmm driver's (make_batch in cuda/drivers/spmm_cuda.cu) bit for bit: offsets, CSR, COO order, B in
// both layouts, for a mixed batch read from an .spb file. Pinned host memory is replaced by malloc so
// it runs where no CUDA driver exists.
//   nvcc -std=c++17 -DSPB_NO_PEERS -Icuda/include dev/plugins/batch_equivalence.cu -o /tmp/beq && /tmp/beq BATCH.spb
#include <cuda_runtime.h>
#include <cstdlib>
#define cudaMallocHost(pp, n) (*(pp) = static_cast<std::remove_reference_t<decltype(**(pp))>*>(std::malloc(n)), cudaSuccess)
#define cudaFreeHost(p) (std::free(p), cudaSuccess)
#define main spmm_driver_main
#include "../../cuda/drivers/spmm_cuda.cu"
#undef main
#include "../../cuda/common/spmm_batch.hpp"

template <typename A, typename B> bool same(const char* what, const A& a, const B& b, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (!(a[i] == b[i])) { std::printf("DIFFER %s at %zu\n", what, i); return false; }
  return true;
}

template <typename T> int compare(const std::vector<spb::Csr>& mats) {
  int bad = 0;
  const auto A = spb::rounded<T>(mats);
  for (int nb : {1, 7, 64})
    for (int lay = 0; lay < 2; ++lay)
      for (uint64_t seed : {1ull, 12345ull}) {
        std::vector<double> bref;
        auto h = spb::make_batch<T>(A, nb, lay ? spb::Layout::Col : spb::Layout::Row, seed, bref);
        auto g = spb::build_spmm_batch<T>(spb::rounded_batch<T>(mats), nb, lay ? spb::BatchLayout::Col : spb::BatchLayout::Row, seed);
        bool ok = h.total_rows == g.total_rows && h.total_nnz == g.total_nnz && h.total_cols == g.total_cols && h.uniform == g.uniform;
        ok = ok && same("row_off", h.row_off, g.row_off, g.row_off.size()) && same("col_off", h.col_off, g.col_off, g.col_off.size()) &&
             same("nnz_off", h.nnz_off, g.nnz_off, g.nnz_off.size()) && same("rp", h.rp, g.rp, g.rp.size()) && same("ci", h.ci, g.ci, g.ci.size()) &&
             same("val", h.val, g.val, g.val.size()) && same("coo_r", h.coo_r, g.coo_r, g.coo_r.size()) && same("coo_c", h.coo_c, g.coo_c, g.coo_c.size()) &&
             same("coo_v", h.coo_v, g.coo_v, g.coo_v.size()) && same("B", h.B, g.B, g.B.size()) && same("b_ref", bref, g.b_ref, g.b_ref.size());
        std::printf("%s nb=%d layout=%s seed=%llu: %s\n", sizeof(T) == 4 ? "f32" : "f64", nb, lay ? "col" : "row", (unsigned long long)seed, ok ? "identical" : "DIFFERENT");
        bad += !ok;
      }
  return bad;
}

int main(int argc, char** argv) {
  if (argc != 2) { std::fprintf(stderr, "usage: %s BATCH.spb\n", argv[0]); return 2; }
  const auto mats = spb::read_spb(argv[1]).mats;
  const int bad = compare<float>(mats) + compare<double>(mats);
  std::printf("%s\n", bad ? "FAILED" : "all identical");
  return bad ? 1 : 0;
}
