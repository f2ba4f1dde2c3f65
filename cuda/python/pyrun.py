#!/usr/bin/env python3
"""spbench's Python runner: the framework peers (PyTorch) and `--kernel FILE.py` plugins.

Same job as cuda/drivers/plugin_spmm.cu, for Python: read the .spb batch, build the same stacked
CSR and the same B from the seed as the spmm driver (cuda/common/spmm_batch.hpp, bit for bit), the
float64 reference and its check (cuda/common/reference.hpp), poison C, time with CUDA events, and
print the JSON lines of docs/native-protocol.md (validated by src/native/protocol.ts).

  pyrun.py spmm --input BATCH.spb --nb 16,64 --precision f32|f64 --mode kernel|e2e|graph --warmup N
                --samples N --layout row|col --seed S (--methods torch-sparse-loop,... | --plugin FILE.py --name NAME)

The pure parts (reading, B, reference, check, lines) need only numpy, so they are tested without a GPU
(test/python/test_pyrun.py). torch is imported only to run methods: where it is missing or has no
CUDA, every method is reported not applicable with that reason (exit 0), never an error.
"""
import argparse
import importlib.util
import json
import math
import statistics
import struct
import sys
import time

import numpy as np

PEERS = ("torch-sparse-loop", "torch-sparse-bmm", "torch-blockdiag")
MASK64 = (1 << 64) - 1


def emit(obj):
    # one protocol line; flush so spbench sees progress and keeps what came before a crash
    sys.stdout.write(json.dumps(obj, separators=(",", ":"), allow_nan=False) + "\n")
    sys.stdout.flush()


# ---- .spb (docs/binary-format.md) ----------------------------------------------------------------

def read_spb(path):
    """Every matrix of an .spb file as (rows, cols, row_ptr int64, col_idx int64, values float64)."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 32 or data[:4] != b"SPBM":
        raise ValueError(f"{path}: not an .spb file (bad magic)")
    version, count, ib, vt = struct.unpack_from("<IIBB", data, 4)
    file_bytes = struct.unpack_from("<Q", data, 24)[0]
    if version != 1 or ib not in (4, 8) or vt not in (1, 2) or file_bytes != len(data):
        raise ValueError(f"{path}: unsupported or truncated .spb (version {version}, index {ib}, value type {vt})")
    itype, vtype = ("<i4" if ib == 4 else "<i8"), ("<f4" if vt == 1 else "<f8")
    off, mats = 32, []

    def take(n, dtype, size):
        nonlocal off
        a = np.frombuffer(data, dtype=dtype, count=n, offset=off)
        off += (n * size + 7) & ~7  # arrays are padded to 8 bytes
        return a

    for _ in range(count):
        off = (off + 7) & ~7
        rows, cols, nnz = struct.unpack_from("<QQQ", data, off)
        off += 24
        rp = take(rows + 1, itype, ib).astype(np.int64)
        ci = take(nnz, itype, ib).astype(np.int64)
        val = take(nnz, vtype, 4 if vt == 1 else 8).astype(np.float64)
        mats.append((int(rows), int(cols), rp, ci, val))
    return mats


# ---- std::mt19937_64, vectorised (B must be the spmm driver's bit for bit) ------------------------

class MT64:
    N, M = 312, 156

    def __init__(self, seed):
        mt = [seed & MASK64]
        for i in range(1, self.N):
            mt.append((6364136223846793005 * (mt[-1] ^ (mt[-1] >> 62)) + i) & MASK64)
        self.mt = np.array(mt, dtype=np.uint64)
        self.idx = self.N

    def _twist(self):
        mt, n, m = self.mt, self.N, self.M
        up, lo, a = np.uint64(0xFFFFFFFF80000000), np.uint64(0x7FFFFFFF), np.uint64(0xB5026F5AA96619E9)

        def mix(i0, i1, im):  # new mt[i0:i1] (i1 < n); each chunk reads only values final before it
            x = (mt[i0:i1] & up) | (mt[i0 + 1:i1 + 1] & lo)
            mt[i0:i1] = mt[im:im + (i1 - i0)] ^ (x >> np.uint64(1)) ^ np.where(x & np.uint64(1), a, np.uint64(0))

        mix(0, n - m, m)  # reads old mt[m:n]
        mix(n - m, n - 1, 0)  # reads new mt[0:n-m-1]
        x = (mt[n - 1] & up) | (mt[0] & lo)
        mt[n - 1] = mt[m - 1] ^ (x >> np.uint64(1)) ^ (a if x & np.uint64(1) else np.uint64(0))
        self.idx = 0

    def draw(self, count):
        out, got = np.empty(count, dtype=np.uint64), 0
        while got < count:
            if self.idx >= self.N:
                self._twist()
            k = min(count - got, self.N - self.idx)
            y = self.mt[self.idx:self.idx + k].copy()
            y ^= (y >> np.uint64(29)) & np.uint64(0x5555555555555555)
            y ^= (y << np.uint64(17)) & np.uint64(0x71D67FFFEDA60000)
            y ^= (y << np.uint64(37)) & np.uint64(0xFFF7EEE000000000)
            y ^= y >> np.uint64(43)
            out[got:got + k] = y
            got += k
            self.idx += k
        return out


def unit(u64):
    """spb::batch_unit: uniform in [-1, 1] from 53 bits."""
    return (u64 >> np.uint64(11)).astype(np.float64) * (2.0 / 9007199254740992.0) - 1.0


# ---- precisions (cuda/common/value_traits.hpp): storage, tolerance, normalizer floor --------------------
# numpy has no bfloat16: bf16 values are kept as float32 arrays holding bf16-representable values, and
# torch gets them as torch.bfloat16 (exact).
HOST_DTYPE = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "bf16": np.float32}
VALUE_BYTES = {"f32": 4, "f64": 8, "f16": 2, "bf16": 2}
TOLERANCE = {"f32": 1e-4, "f64": 1e-12, "f16": 1e-3, "bf16": 8e-3}
FLOOR = {"f16": 2.0 ** -14}  # f16's smallest normal (below it, rounding is absolute); others: tiny


def to_bf16(x):
    """float64 -> the nearest bfloat16 (ties to even), as float32: round to odd to float32, then to nearest even
    on the top 16 bits (exact double rounding: float32 keeps 16 more bits than bfloat16)."""
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(over="ignore"):
        f = x.astype(np.float32)
    with np.errstate(invalid="ignore"):
        away = np.abs(f.astype(np.float64)) > np.abs(x)
    f = np.where(away, np.nextafter(f, np.float32(0)), f).astype(np.float32)  # truncated toward zero
    u = f.view(np.uint32).copy()
    u |= (f.astype(np.float64) != x).astype(np.uint32)  # sticky bit: round to odd
    u = (u.astype(np.uint64) + 0x7FFF + ((u >> 16) & 1)) >> 16 << 16
    out = u.astype(np.uint32).view(np.float32)
    return np.where(np.isnan(x), np.float32(np.nan), out)


def rounded(x, precision):
    """Values rounded to the precision, in its host dtype (HOST_DTYPE)."""
    return to_bf16(x) if precision == "bf16" else np.asarray(x, dtype=np.float64).astype(HOST_DTYPE[precision])


# ---- the batch, the reference, the check (spmm_batch.hpp, reference.hpp) ---------------------------

class HostBatch:
    """Stacked CSR (values rounded to the precision), offsets, B in the layout, the reference."""

    def __init__(self, mats, nb, precision, layout, seed):
        self.nb, self.precision, self.layout = nb, precision, layout
        self.dtype = HOST_DTYPE[precision]
        self.m = np.array([a[0] for a in mats], dtype=np.int64)
        self.k = np.array([a[1] for a in mats], dtype=np.int64)
        self.nnz = np.array([len(a[3]) for a in mats], dtype=np.int64)
        self.count = len(mats)
        cat = lambda xs: np.concatenate(xs) if xs else np.zeros(0, dtype=np.int64)
        self.row_off, self.col_off, self.nnz_off = (cat([[0], np.cumsum(x)]).astype(np.int64) for x in (self.m, self.k, self.nnz))
        self.total_rows, self.total_cols, self.total_nnz = int(self.row_off[-1]), int(self.col_off[-1]), int(self.nnz_off[-1])
        self.uniform = bool(self.count == 0 or ((self.m == self.m[0]).all() and (self.k == self.k[0]).all() and (self.nnz == self.nnz[0]).all()))
        # stacked row pointer over the stacked nonzeros, local columns, values as the GPU sees them
        self.rp = cat([[0]] + [a[2][1:] + self.nnz_off[i] for i, a in enumerate(mats)]).astype(np.int64)
        self.ci = cat([a[3] for a in mats]).astype(np.int64)
        self.val = rounded(cat([a[4] for a in mats]), precision)
        self.row_of_nnz = np.repeat(np.arange(self.total_rows), np.diff(self.rp))
        self.mat_of_row = np.repeat(np.arange(self.count), self.m)
        # B_i: row-major values drawn in order (matrix, row, column) from mt19937_64(seed·1000003 + nb)
        g = MT64((seed * 1000003 + nb) & MASK64)
        self.b_ref = rounded(unit(g.draw(self.total_cols * nb)), precision).astype(np.float64)
        self.B = self.to_layout(self.b_ref.astype(self.dtype), self.k, self.col_off)
        self._reference()

    def to_layout(self, rowmajor, dims, offs):
        """Stacked row-major blocks (dims[i] x nb) → the case's layout (col: each block column-major)."""
        if self.layout == "row":
            return rowmajor.copy()
        out = np.empty_like(rowmajor)
        for i in range(self.count):
            a, d = int(offs[i]) * self.nb, int(dims[i])
            out[a:a + d * self.nb] = rowmajor[a:a + d * self.nb].reshape(d, self.nb).T.reshape(-1)
        return out

    def to_rowmajor(self, flat):
        if self.layout == "row":
            return flat
        out = np.empty_like(flat)
        for i in range(self.count):
            a, d = int(self.row_off[i]) * self.nb, int(self.m[i])
            out[a:a + d * self.nb] = flat[a:a + d * self.nb].reshape(self.nb, d).T.reshape(-1)
        return out

    def _reference(self):
        nb = self.nb
        gcol = self.ci + self.col_off[self.mat_of_row[self.row_of_nnz]] if self.total_nnz else self.ci
        Bd = self.b_ref.reshape(self.total_cols, nb)
        v = self.val.astype(np.float64)
        prod = v[:, None] * Bd[gcol] if self.total_nnz else np.zeros((0, nb))
        self.ref = np.zeros((self.total_rows, nb))
        self.ref_abs = np.zeros((self.total_rows, nb))
        rows = np.flatnonzero(np.diff(self.rp) > 0)
        if len(rows):  # reduceat over the starts of the non-empty rows: each sums exactly its row
            self.ref[rows] = np.add.reduceat(prod, self.rp[rows], axis=0)
            self.ref_abs[rows] = np.add.reduceat(np.abs(prod), self.rp[rows], axis=0)
        self.ref, self.ref_abs = self.ref.reshape(-1), self.ref_abs.reshape(-1)

    def flops(self):
        return 2.0 * self.total_nnz * self.nb

    def bytes_moved(self):
        t = VALUE_BYTES[self.precision]  # the plugin runner's count (CSR index arrays), so GB/s compare
        return float(self.total_nnz * (t + 4) + (self.total_rows + self.count) * 4 + (self.total_cols + self.total_rows) * self.nb * t)


def tolerance(precision):
    return TOLERANCE[precision]


def check(got, h, when):
    """(passed, max_err or None, detail): the normalized error rule of reference.hpp, per element."""
    g = h.to_rowmajor(np.asarray(got).reshape(-1)).astype(np.float64)
    if g.size != h.ref.size:
        return False, None, f"{when}: C has {g.size} elements, expected {h.ref.size}"
    tol = tolerance(h.precision)
    finite = np.isfinite(g)
    floor = FLOOR.get(h.precision, np.finfo(np.float64).tiny)
    scale = np.where(h.ref_abs > floor, h.ref_abs, floor)
    with np.errstate(invalid="ignore", over="ignore"):
        err = np.where(finite, np.abs(g - h.ref) / scale, np.inf)
    err = np.where((h.ref_abs == 0) & (g != 0), np.inf, err)
    bad = np.flatnonzero(~(err <= tol))
    max_err = float(err[finite].max()) if finite.any() else 0.0
    if len(bad) == 0:
        return True, max_err, ""
    w = int(bad[0])
    r, j = divmod(w, h.nb)
    i = int(h.mat_of_row[r])
    note = "" if finite[w] else " (not finite: unwritten or overflow)"
    detail = f"{when}: matrix {i} row {r - int(h.row_off[i])} col {j}: got {g[w]:.9g}, want {h.ref[w]:.9g}{note}"
    return False, (None if not finite.all() or not math.isfinite(max_err) else max_err), detail


def result_line(h, method, family, mode, status, reason="", samples=(), peak=0, verify=None, info=None, spec=None, sampling=None):
    v = verify or {"checked": False, "passed": False, "max_rel_err": None}
    line = {
        "type": "result", "op": "spmm", "method": method, "family": family,
        "params": {"nb": h.nb, "precision": h.precision, "mode": mode, "layout": h.layout, "batch": h.count,
                   "max_m": int(h.m.max()) if h.count else 0},
        "status": status, "timed_region": mode, "samples_ms": [float(s) for s in samples],
        "flops": h.flops(), "bytes_moved": h.bytes_moved(), "peak_mem_bytes": float(peak),
        "verify": {**v, "tol": tolerance(h.precision), "reference": "cpu-f64"},
        "info": {"format": "csr", "runner": "python", **(info or {})},
    }
    if spec is not None:
        line["cache"] = "cold" if spec.cold else "hot"
    if sampling is not None:
        line["sampling"] = sampling
    if reason:
        line["reason"] = reason
    return line


class Sampling:
    """--samples N|auto and its limits, the same rules as the native drivers' loop (cuda/common/sampling.hpp): a fixed
    count, or samples until the median's relative standard error sqrt(pi/2)*1.4826*MAD/sqrt(n)/median is at most
    max_noise percent (after min_samples samples and min_time seconds of them), or timeout seconds, or 100000 samples."""

    def __init__(self, samples, max_noise, min_samples, min_time, timeout, cold):
        self.auto = samples == "auto"
        if not self.auto:
            if not samples.isdigit() or not 1 <= int(samples) <= 100000:
                raise ValueError(f"--samples must be auto or between 1 and 100000, got {samples}")
        self.samples = 0 if self.auto else int(samples)
        if not 0 < max_noise <= 100:
            raise ValueError(f"--max-noise must be a percentage in (0, 100], got {max_noise}")
        self.max_noise, self.min_samples, self.min_time, self.timeout, self.cold = max_noise, min_samples, min_time, timeout, cold

    @staticmethod
    def noise(x):
        if len(x) < 2:
            return math.inf
        med = statistics.median(x)
        if not med > 0:
            return math.inf
        sd = 1.4826 * statistics.median([abs(v - med) for v in x])
        return math.sqrt(math.pi / 2) * sd / math.sqrt(len(x)) / med

    def collect(self, before, sample):
        """before() outside the timed region (poison, L2 flush); sample() returns one sample in ms."""
        t0, out, total, rule, next_check = time.monotonic(), [], 0.0, "samples", 1
        while True:
            before()
            ms = sample()
            out.append(ms)
            total += ms
            n = len(out)
            if not self.auto:
                if n >= self.samples:
                    break
                continue
            if n >= 100000:
                rule = "max-samples"
                break
            if time.monotonic() - t0 >= self.timeout:
                rule = "timeout"
                break
            if n < self.min_samples or total < self.min_time * 1e3 or n < next_check:
                continue
            next_check = n + 1 if n < 64 else n + n // 16
            if self.noise(out) * 100 <= self.max_noise:
                rule = "noise"
                break
        nz = self.noise(out)
        info = {"samples": "auto" if self.auto else str(self.samples), "rule": rule, "n": len(out),
                "noise_pct": nz * 100 if math.isfinite(nz) else None, "noise_estimator": "sqrt(pi/2)*1.4826*MAD/sqrt(n)/median",
                "wall_s": time.monotonic() - t0}
        if self.auto:
            info.update({"max_noise_pct": self.max_noise, "min_samples": self.min_samples, "min_time_s": self.min_time, "timeout_s": self.timeout})
        return out, info


# ---- what runs: peers and plugins share one contract ------------------------------------------------

class Method:
    """name, family, and the plugin contract: setup(batch) -> state (optional), spmm(batch, B, C) -> None or C."""

    def __init__(self, name, family, spmm, setup=None, layouts=("row", "col"), mixed=True, graph=True, why=None, plugin=None):
        self.name, self.family, self.spmm, self.setup = name, family, spmm, setup
        self.layouts, self.mixed, self.graph, self.why, self.plugin = layouts, mixed, graph, why or {}, plugin

    def not_applicable(self, h, mode):
        if h.layout not in self.layouts:
            return self.why.get("layout", f"declares layouts {', '.join(self.layouts)}; this case is {h.layout}-major")
        if not self.mixed and not h.uniform:
            return self.why.get("mixed", "does not handle mixed batches; this batch has matrices of different sizes or nnz")
        if mode == "graph" and not self.graph:
            return self.why.get("graph", 'does not declare graph capture ("graph": False), so graph mode cannot time it')
        return None


def peer_methods():
    import torch

    def loop_setup(b):
        # one torch CSR tensor per matrix (what a user's loop over the batch holds), built untimed
        As = []
        for i in range(b.count):
            r0, r1, z0, z1 = b.h_row_offset[i], b.h_row_offset[i + 1], b.h_nnz_offset[i], b.h_nnz_offset[i + 1]
            As.append(torch.sparse_csr_tensor(b.row_ptr[r0:r1 + 1] - z0, b.col_idx[z0:z1], b.values[z0:z1], (b.m[i], b.k[i])))
        return As

    def loop(b, B, C):
        for i, A in enumerate(b.state):
            b.c(C, i).copy_(torch.sparse.mm(A, b.b(B, i)))  # torch.sparse.mm has no out=: the copy is the user's too

    def bmm_setup(b):
        # torch.bmm takes a 3-D sparse COO batch (same m, k for every matrix): indices (matrix, row, col)
        rows = torch.repeat_interleave(torch.arange(b.total_rows, device=b.device), (b.row_ptr[1:] - b.row_ptr[:-1]).long())
        mat = torch.div(rows, b.m[0], rounding_mode="floor") if b.count else rows
        idx = torch.stack([mat, rows - mat * (b.m[0] if b.count else 0), b.col_idx.long()])
        return torch.sparse_coo_tensor(idx, b.values, (b.count, b.m[0] if b.count else 0, b.k[0] if b.count else 0)).coalesce()

    def bmm(b, B, C):
        k, m = (b.k[0], b.m[0]) if b.count else (0, 0)
        B3 = B.view(b.count, k, b.nb) if b.layout == "row" else B.view(b.count, b.nb, k).transpose(1, 2).contiguous()
        out = torch.bmm(b.state, B3)
        if b.layout == "row":
            return out
        C.view(b.count, b.nb, m).copy_(out.transpose(1, 2))

    def blockdiag_setup(b):
        # PyG's batching: one CSR of the block-diagonal stack (global columns), times the stacked B
        cols = torch.repeat_interleave(b.col_offset[:-1], b.nnz_per_matrix) + b.col_idx
        return torch.sparse_csr_tensor(b.row_ptr, cols.to(torch.int32), b.values, (b.total_rows, b.total_cols))

    def blockdiag(b, B, C):
        return torch.sparse.mm(b.state, B.view(b.total_cols, b.nb))

    stacked = "the block-diagonal stack needs row-major B and C (stacked B_i are not one column-major matrix)"
    return {
        "torch-sparse-loop": Method("torch-sparse-loop", "peer", loop, loop_setup),
        "torch-sparse-bmm": Method("torch-sparse-bmm", "peer", bmm, bmm_setup, mixed=False,
                                   why={"mixed": "torch.bmm needs one shape for the whole batch; this batch has matrices of different sizes or nnz"}),
        "torch-blockdiag": Method("torch-blockdiag", "peer", blockdiag, blockdiag_setup, layouts=("row",), why={"layout": stacked}),
    }


def plugin_method(path, name):
    spec = importlib.util.spec_from_file_location("spbench_user_plugin", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    man = getattr(mod, "MANIFEST", {})
    if not callable(getattr(mod, "spmm", None)):
        raise ValueError(f"{path} defines no function spmm(batch, B, C)")
    return Method(name, "user", mod.spmm, getattr(mod, "setup", None), layouts=tuple(man.get("layouts", ["row"])),
                  mixed=bool(man.get("mixed", False)), graph=bool(man.get("graph", False)), plugin=path)


class DeviceBatch:
    """What a method sees (docs/plugins.md, "Python plugins"): the stacked CSR on the device and views."""

    def __init__(self, h, torch):
        dev = torch.device("cuda")
        self.device, self.count, self.nb, self.layout, self.precision = dev, h.count, h.nb, h.layout, h.precision
        self.dtype = {"f32": torch.float32, "f64": torch.float64, "f16": torch.float16, "bf16": torch.bfloat16}[h.precision]
        self.total_rows, self.total_cols, self.total_nnz, self.uniform = h.total_rows, h.total_cols, h.total_nnz, h.uniform
        self.m, self.k, self.nnz = h.m.tolist(), h.k.tolist(), h.nnz.tolist()
        self.h_row_offset, self.h_col_offset, self.h_nnz_offset = h.row_off.tolist(), h.col_off.tolist(), h.nnz_off.tolist()
        i32 = lambda a: torch.from_numpy(np.ascontiguousarray(a, dtype=np.int32)).to(dev)
        self.row_offset, self.col_offset, self.nnz_offset = i32(h.row_off), i32(h.col_off), i32(h.nnz_off)
        self.nnz_per_matrix = torch.from_numpy(h.nnz).to(dev)
        # pinned host copies (e2e re-uploads them into the same device tensors before every call)
        pin = lambda a, dt: torch.from_numpy(np.ascontiguousarray(a, dtype=dt)).pin_memory()
        vals = lambda a: torch.from_numpy(np.ascontiguousarray(a, dtype=h.dtype)).to(self.dtype).pin_memory()  # bf16: exact from float32
        self.h_rp, self.h_ci, self.h_val, self.h_B = pin(h.rp, np.int32), pin(h.ci, np.int32), vals(h.val), vals(h.B)
        self.row_ptr, self.col_idx, self.values = self.h_rp.to(dev), self.h_ci.to(dev), self.h_val.to(dev)
        self.B = self.h_B.to(dev)
        self.C = torch.empty(h.total_rows * h.nb, dtype=self.dtype, device=dev)
        self.state = None

    def upload(self):
        for d, s in ((self.row_ptr, self.h_rp), (self.col_idx, self.h_ci), (self.values, self.h_val), (self.B, self.h_B)):
            d.copy_(s, non_blocking=True)

    def _view(self, X, off, rows, i):
        a = off[i] * self.nb
        n = rows[i] * self.nb
        return X[a:a + n].view(rows[i], self.nb) if self.layout == "row" else X[a:a + n].view(self.nb, rows[i]).t()

    def b(self, B, i):
        """B_i as a k_i x nb view (strided for column-major)."""
        return self._view(B, self.h_col_offset, self.k, i)

    def c(self, C, i):
        """C_i as an m_i x nb view (strided for column-major)."""
        return self._view(C, self.h_row_offset, self.m, i)


def host_values(C):
    """C on the host as numpy (bfloat16, which numpy lacks, exactly as float32)."""
    return (C.float() if str(C.dtype) == "torch.bfloat16" else C).cpu().numpy()


def unsupported_16bit(h, e):
    """torch's refusal of a 16-bit dtype (an op with no Half / BFloat16 kernel): not applicable, not an error."""
    text = str(e)
    return h.precision in ("f16", "bf16") and ("not implemented for" in text or "not supported" in text.lower()) and ("Half" in text or "BFloat16" in text or "dtype" in text)


def run_method(torch, meth, h, db, mode, warmup, spec):
    na = meth.not_applicable(h, mode)
    info = {"plugin": meth.plugin} if meth.plugin else {}
    if na:
        return result_line(h, meth.name, meth.family, mode, "not_applicable", na, info=info)
    stream = torch.cuda.current_stream()
    peak, reps = 0, 1
    try:
        torch.cuda.synchronize()
        base = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        db.state = meth.setup(db) if meth.setup else None
        out = {"C": db.C}

        def call():
            r = meth.spmm(db, db.B, db.C)
            out["C"] = db.C if r is None else r

        def once():
            if mode == "e2e":
                db.upload()
            call()

        db.C.fill_(float("nan"))  # poison: an element the method does not write fails the check
        call()
        torch.cuda.synchronize()
        # the inputs count as the native runners count them: A, B, C on the device, plus all the method allocated
        inputs = sum(t.numel() * t.element_size() for t in (db.row_ptr, db.col_idx, db.values, db.B, db.C))
        peak = inputs + torch.cuda.max_memory_allocated() - base
        ok, err, detail = check(host_values(out["C"]), h, "first run")
        if not ok:
            return result_line(h, meth.name, meth.family, mode, "failed", peak=peak, verify={"checked": True, "passed": False, "max_rel_err": err, "detail": detail}, info=info)
        graph = None
        if mode == "graph":
            try:
                graph = capture(torch, call, 1)
            except Exception as e:  # noqa: BLE001  (a method that cannot be captured is not applicable, with torch's reason)
                torch.cuda.synchronize()
                return result_line(h, meth.name, meth.family, mode, "not_applicable", f"CUDA graph capture failed, so graph mode cannot time it: {one_line(e)}", peak=peak, info=info)
        ea, eb = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)

        def timed(n, f):
            ea.record(stream)
            for _ in range(n):
                f()
            eb.record(stream)
            eb.synchronize()
            return ea.elapsed_time(eb) / n

        step = graph.replay if graph else once
        # at most `warmup` calls, none past the first once a second has gone by (sampling.hpp's run_warmups)
        t_warm = time.perf_counter()
        for _ in range(warmup):
            step()
            if time.perf_counter() - t_warm >= 1.0:
                break
        # sub-10 µs calls (graph: sub-50 µs) are timed several to a sample, as the native runners do
        t1 = min(timed(1, step) for _ in range(3))
        if t1 < (0.050 if graph else 0.010):
            reps = min(200, max(2, math.ceil(0.050 / max(t1, 1e-4))))
        if graph and reps > 1:
            graph = capture(torch, call, reps)
        # --cache cold: a buffer of twice the L2 is written before each sample, outside the timed region (as the
        # native drivers' L2Flusher does); a cold sample is one call, since back-to-back calls would find it warm
        flush = None
        if spec.cold:
            l2 = getattr(torch.cuda.get_device_properties(torch.cuda.current_device()), "L2_cache_size", 0) or (50 << 20)
            flush = torch.empty(2 * l2, dtype=torch.uint8, device="cuda")
            if reps > 1:
                reps = 1
                if graph:
                    graph = capture(torch, call, 1)

        def before():
            db.C.fill_(float("nan"))
            if flush is not None:
                flush.zero_()

        samples, sampling = spec.collect(before, lambda: timed(1, graph.replay) / reps if graph else timed(reps, once))
        del flush
        ok, err2, detail = check(host_values(out["C"]), h, "after the last timed sample")
        peak = max(peak, inputs + torch.cuda.max_memory_allocated() - base)
        if not ok:
            return result_line(h, meth.name, meth.family, mode, "failed", peak=peak, verify={"checked": True, "passed": False, "max_rel_err": err2, "detail": detail}, info={**info, "reps_per_sample": reps}, spec=spec)
        return result_line(h, meth.name, meth.family, mode, "ok", samples=samples, peak=peak,
                           verify={"checked": True, "passed": True, "max_rel_err": max(err, err2)}, info={**info, "reps_per_sample": reps}, spec=spec, sampling=sampling)
    except Exception as e:  # noqa: BLE001  (the method's error is its result; the other methods go on)
        try:
            torch.cuda.synchronize()
        except Exception:  # noqa: BLE001  (a lost context: the next call ends the process, spbench reports the rest)
            pass
        if unsupported_16bit(h, e):
            return result_line(h, meth.name, meth.family, mode, "not_applicable", f"torch has no {h.precision} kernel for this method: {one_line(e)}", info=info)
        return result_line(h, meth.name, meth.family, mode, "error", one_line(e), peak=peak, info=info)
    finally:
        db.state = None


def capture(torch, call, reps):
    # torch's recipe: warm up on a side stream, then capture `reps` calls back to back in one graph
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        call()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(reps):
            call()
    return g


def one_line(e):
    return f"{type(e).__name__}: {' '.join(str(e).split())}"[:600]


def torch_unavailable():
    """(torch, None) or (None, the reason every method is not applicable)."""
    try:
        import torch
    except Exception as e:  # noqa: BLE001
        return None, f'PyTorch is not importable here (python3 -c "import torch": {one_line(e)})'
    if not torch.cuda.is_available():
        return None, f"PyTorch {torch.__version__} sees no CUDA device (torch.cuda.is_available() is False; CUDA build: {torch.version.cuda})"
    return torch, None


def main(argv):
    p = argparse.ArgumentParser(prog="pyrun.py")
    p.add_argument("command", choices=["spmm"])
    p.add_argument("--input", required=True)
    p.add_argument("--nb", default="64")
    p.add_argument("--precision", choices=["f32", "f64", "f16", "bf16"], default="f32")
    p.add_argument("--mode", choices=["kernel", "e2e", "graph"], default="kernel")
    p.add_argument("--layout", choices=["row", "col"], default="row")
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--samples", default="20")  # N or auto (cuda/common/sampling.hpp's rules, below)
    p.add_argument("--max-noise", type=float, default=0.5)
    p.add_argument("--min-samples", type=int, default=10)
    p.add_argument("--min-time", type=float, default=0.05)
    p.add_argument("--timeout", type=float, default=10.0)
    p.add_argument("--cache", choices=["hot", "cold"], default="hot")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--device", type=int, default=0)
    p.add_argument("--methods", default="")
    p.add_argument("--plugin")
    p.add_argument("--name")
    try:
        o = p.parse_args(argv)
        nbs = [int(x) for x in o.nb.split(",")]
        spec = Sampling(o.samples, o.max_noise, o.min_samples, o.min_time, o.timeout, o.cache == "cold")
        mats = read_spb(o.input)
        names = [o.name or "plugin"] if o.plugin else [m for m in o.methods.split(",") if m]
        unknown = [m for m in names if not o.plugin and m not in PEERS]
        if unknown:
            raise ValueError(f"--methods: unknown framework peer '{unknown[0]}' (known: {', '.join(PEERS)})")
    except (ValueError, OSError) as e:
        print(f"pyrun.py: {e}", file=sys.stderr)  # exit 2: spbench shows this line as a usage error
        return 2
    torch, why = torch_unavailable()
    emit({"type": "env", "protocol": 1, "backend": "cuda", "executable": "pyrun.py", "devices": []})
    methods = None
    if torch is not None:
        torch.cuda.set_device(o.device)
        try:
            methods = [plugin_method(o.plugin, names[0])] if o.plugin else [peer_methods()[n] for n in names]
        except Exception as e:  # noqa: BLE001  (a plugin that does not import is an error of that plugin)
            why, torch = f"the plugin could not be loaded: {one_line(e)}", None
    for nb in nbs:
        h = HostBatch(mats, nb, o.precision, o.layout, o.seed)
        if torch is None:
            family = "user" if o.plugin else "peer"
            st = "error" if o.plugin and why.startswith("the plugin could not") else "not_applicable"
            for n in names:
                emit(result_line(h, n, family, o.mode, st, why, info={"plugin": o.plugin} if o.plugin else {}, spec=spec))
            continue
        db = DeviceBatch(h, torch)
        for m in methods:
            emit(run_method(torch, m, h, db, o.mode, o.warmup, spec))
        del db
    emit({"type": "done"})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
