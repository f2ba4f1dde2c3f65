# A Python SpMM plugin for spbench (docs/plugins.md, "Python plugins"): PyTorch only, no sparse library.
#   spbench spmm --kernel examples/plugins/gather_spmm.py --nb 16,64 --mode kernel,graph
# Every nonzero a(r, c) of the stacked batch gathers row c of the stacked B, scales it by a, and
# index_add_ sums it into row r of C: the whole batch in three kernels, and nothing that synchronises,
# so it can be captured in a CUDA graph ("graph": True).

MANIFEST = {
    "name": "torch-gather",
    "op": "spmm",
    "formats": ["csr"],
    "layouts": ["row"],
    "precisions": ["f32", "f64"],
    "mixed": True,
    "graph": True,
    "description": "gather rows of B per nonzero, scale, index_add_ into C (PyTorch)",
}

import torch


def setup(batch):
    """Untimed, once per case: the global row and the global B row (column) of every nonzero."""
    dev = batch.device
    rows = torch.repeat_interleave(torch.arange(batch.total_rows, device=dev), (batch.row_ptr[1:] - batch.row_ptr[:-1]).long())
    owner = torch.repeat_interleave(torch.arange(batch.count, device=dev), batch.nnz_per_matrix)
    cols = batch.col_offset[owner].long() + batch.col_idx.long()
    return rows, cols


def spmm(batch, B, C):
    """Timed: C_i = A_i @ B_i for every i, written into C (row-major, so B and C are stacked matrices)."""
    rows, cols = batch.state
    Cm = C.view(batch.total_rows, batch.nb)
    Cm.zero_()  # C arrives poisoned with NaN
    Cm.index_add_(0, rows, B.view(batch.total_cols, batch.nb)[cols] * batch.values[:, None])
