// The device-ready host batch of an SpMM case: HostBatch (cuda/spmm/common.cuh) from the batch every SpMM
// executable builds (cuda/common/spmm_batch.hpp). The driver's, and the planner check's
// (cuda/check/plan_check.cu), which builds the same batches without a GPU.
#pragma once
#include <algorithm>
#include <type_traits>
#include <vector>
#include "../common/spmm_batch.hpp"
#include "common.cuh"

namespace spb {

// The device-ready host batch for one nb, from the batch every SpMM executable builds
// (cuda/common/spmm_batch.hpp: stacked CSR, seeded COO order and B): pinned copies of its arrays, so that
// e2e copies are real DMA, plus the block-diagonal columns. Each array of `g` is released once copied
// (host memory); what check_spmm reads (sizes, row offsets, layout) stays.
template <typename T>
HostBatch<T> make_batch(SpmmBatchData<T>& g) {
  auto pin = [](auto& v, bool release) {
    using U = typename std::decay_t<decltype(v)>::value_type;
    Pinned<U> p(v.size());
    std::copy(v.begin(), v.end(), p.p);
    if (release) std::decay_t<decltype(v)>().swap(v);
    return p;
  };
  HostBatch<T> h;
  h.batch = g.batch; h.nb = g.nb; h.max_m = g.max_m; h.max_k = g.max_k; h.max_nnz = g.max_nnz;
  h.total_rows = g.total_rows; h.total_cols = g.total_cols; h.total_nnz = g.total_nnz;
  h.layout = g.layout == BatchLayout::Row ? Layout::Row : Layout::Col;
  h.uniform = g.uniform;
  h.m = g.m; h.k = g.k; h.nnz = g.nnz;
  h.row_off = pin(g.row_off, false); h.col_off = pin(g.col_off, false); h.nnz_off = pin(g.nnz_off, false);
  h.ci_g = Pinned<int>(size_t(h.total_nnz));
  for (int i = 0; i < h.batch; ++i)
    for (int q = g.nnz_off[i]; q < g.nnz_off[i + 1]; ++q) h.ci_g[q] = g.col_off[i] + g.ci[size_t(q)];
  h.rp = pin(g.rp, true); h.ci = pin(g.ci, true); h.val = pin(g.val, true);
  h.coo_r = pin(g.coo_r, true); h.coo_c = pin(g.coo_c, true); h.coo_v = pin(g.coo_v, true);
  h.B = pin(g.B, true);
  std::vector<double>().swap(g.b_ref);  // the reference is made before
  return h;
}

}  // namespace spb
