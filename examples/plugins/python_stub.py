# spbench Python plugin (PENDING: not runnable yet).
#
# The interface a Python plugin will have once spbench's Python runner exists (it arrives with the
# framework peers of the SpMM issue: PyTorch, CuPy, Triton). Until then `spbench spmm --kernel
# python_stub.py` stops with a usage error (exit 2) saying Python plugins are pending; see
# docs/plugins.md, "Python plugins".
#
# The runner will build the same batch and B as the CUDA runner (same seed), hand them over as
# device tensors, call `spmm` once per timed sample (CUDA events around it, on the current stream)
# and verify C against the float64 reference with a poisoned output.

MANIFEST = {
    "name": "torch-bmm",
    "op": "spmm",
    "formats": ["csr"],
    "layouts": ["row"],
    "precisions": ["f32", "f64"],
    "mixed": True,
    "graph": False,
}


def spmm(batch, B, C):
    """C_i = A_i @ B_i for every matrix of the batch, written into C in place.

    batch: object with row_ptr, col_idx, values (device tensors of the stacked CSR, as in
           spbench_plugin.h), row_offset / col_offset / nnz_offset (count + 1), count, nb.
    B, C:  device tensors of the stacked B_i (total_cols x nb) and C_i (total_rows x nb), row-major.
    """
    import torch  # noqa: F401  (the runner provides the framework)

    raise NotImplementedError("Python plugins are pending: the Python runner does not exist yet")
