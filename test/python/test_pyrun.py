"""Unit tests of cuda/python/pyrun.py's pure parts (numpy only, no torch, no GPU).

Run by test/pyrun.test.ts (npm test) where python3 and numpy exist. The batch test compiles
cuda/common/spmm_batch.hpp on the host with g++ (where there is one) and asks for the same B and
reference bit for bit, because a peer or plugin must see exactly what the native methods see.
"""
import json
import math
import random
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "cuda", "python"))
import pyrun  # noqa: E402


def write_spb(path, mats, f32=True, index8=False):
    """mats: (rows, cols, row_ptr, col_idx, values); the layout of docs/binary-format.md."""
    ib, it = (8, "<i8") if index8 else (4, "<i4")
    vdt = "<f4" if f32 else "<f8"
    body = bytearray()
    pad = lambda b: b + bytes((-len(b)) % 8)
    for rows, cols, rp, ci, val in mats:
        body += struct.pack("<QQQ", rows, cols, len(ci))
        body += pad(np.asarray(rp, it).tobytes()) + pad(np.asarray(ci, it).tobytes()) + pad(np.asarray(val, vdt).tobytes())
    head = b"SPBM" + struct.pack("<IIBBBBQQ", 1, len(mats), ib, 1 if f32 else 2, 0, 0, 0, 32 + len(body))
    with open(path, "wb") as f:
        f.write(head + body)


def random_batch(rng, count, dims, nnz_row):
    mats = []
    for _ in range(count):
        m, k = (int(x) for x in rng.integers(dims[0], dims[1] + 1, 2))
        rp, ci = [0], []
        for _r in range(m):
            cols = np.sort(rng.choice(k, min(k, int(rng.integers(0, nnz_row + 1))), replace=False))
            ci += cols.tolist()
            rp.append(len(ci))
        mats.append((m, k, rp, ci, rng.uniform(-1, 1, len(ci))))
    return mats


CPP = r"""
#include <cstdio>
#include <cstring>
#include "spmm_batch.hpp"
#include "../cpu/half16.hpp"
using namespace spb;
template <typename T>
void run(char** argv) {
  auto mats = read_spb(argv[1]).mats;
  const int nb = atoi(argv[2]);
  const bool col = !strcmp(argv[3], "col");
  const auto A = rounded_batch<T>(mats);
  auto h = build_spmm_batch<T>(A, nb, col ? BatchLayout::Col : BatchLayout::Row, strtoull(argv[4], nullptr, 10));
  auto R = spmm_reference(A, h);
  for (T x : h.B) printf("%.9g\n", double(x));
  for (size_t i = 0; i < R.c.size(); ++i) printf("%.17g %.17g\n", R.c[i], R.abs[i]);
}
// f16 / bf16: the CPU backend's portable types, rounded from double as __double2half / __double2bfloat16 do
int main(int argc, char** argv) {
  const char* p = argc > 5 ? argv[5] : "f32";
  if (!strcmp(p, "f16")) run<cpu::F16>(argv);
  else if (!strcmp(p, "bf16")) run<cpu::BF16>(argv);
  else run<float>(argv);
}
"""


class TestPyrun(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_mt19937_64_matches_the_standard(self):
        # the C++ standard's check: the 10000th output of a default-seeded std::mt19937_64
        g = pyrun.MT64(5489)
        self.assertEqual(int(g.draw(10000)[-1]), 9981545732273789042)
        a, b = pyrun.MT64(7), pyrun.MT64(7)
        self.assertEqual(a.draw(1000).tolist(), np.concatenate([b.draw(311), b.draw(2), b.draw(687)]).tolist())

    def test_read_spb_both_index_widths(self):
        mats = [(2, 3, [0, 1, 3], [2, 0, 1], [0.5, -1.0, 2.0]), (1, 1, [0, 0], [], [])]
        for index8 in (False, True):
            p = os.path.join(self.dir, f"x{index8}.spb")
            write_spb(p, mats, f32=False, index8=index8)
            got = pyrun.read_spb(p)
            self.assertEqual([(r, c) for r, c, *_ in got], [(2, 3), (1, 1)])
            self.assertEqual(got[0][3].tolist(), [2, 0, 1])
            self.assertEqual(got[0][4].tolist(), [0.5, -1.0, 2.0])
        with open(p, "ab") as f:
            f.write(b"x")
        with self.assertRaisesRegex(ValueError, "truncated"):
            pyrun.read_spb(p)

    @unittest.skipUnless(shutil.which("g++"), "g++ not found: B and the reference are not compared with spmm_batch.hpp")
    def test_batch_and_reference_equal_the_native_ones(self):
        exe = os.path.join(self.dir, "batch")
        src = os.path.join(self.dir, "batch.cpp")
        with open(src, "w") as f:
            f.write(CPP)
        subprocess.run(["g++", "-std=c++17", "-O1", "-I", os.path.join(ROOT, "cuda", "common"), src, "-o", exe], check=True)
        p = os.path.join(self.dir, "b.spb")
        write_spb(p, random_batch(np.random.default_rng(3), 7, (3, 12), 4), f32=False)
        mats = pyrun.read_spb(p)
        cases = [(5, "row", 1, "f32"), (3, "col", 42, "f32"), (300, "row", 5, "f16"), (7, "col", 6, "f16"), (300, "row", 5, "bf16"), (7, "col", 6, "bf16")]
        for nb, layout, seed, prec in cases:
            out = subprocess.run([exe, p, str(nb), layout, str(seed), prec], check=True, capture_output=True, text=True).stdout.split("\n")
            h = pyrun.HostBatch(mats, nb, prec, layout, seed)
            nB = h.B.size
            self.assertEqual(h.B.astype(np.float32).tolist(), np.array([float(x) for x in out[:nB]], dtype=np.float32).tolist(), f"B nb={nb} {layout} {prec}")
            ref = np.array([[float(v) for v in line.split()] for line in out[nB:] if line])
            np.testing.assert_allclose(h.ref, ref[:, 0], rtol=1e-14, atol=1e-15)
            np.testing.assert_allclose(h.ref_abs, ref[:, 1], rtol=1e-14, atol=1e-15)

    def test_check_passes_exact_and_names_the_first_wrong_element(self):
        mats = [(r, c, np.array(rp), np.array(ci), np.array(v, float)) for r, c, rp, ci, v in random_batch(np.random.default_rng(1), 4, (4, 6), 3)]
        for layout in ("row", "col"):
            h = pyrun.HostBatch(mats, 4, "f64", layout, 9)
            good = h.to_layout(h.ref.copy(), h.m, h.row_off)
            ok, err, detail = pyrun.check(good, h, "first run")
            self.assertTrue(ok, detail)
            self.assertEqual(err, 0.0)
            # a wrong value in matrix 2, row 1, column 3 (row-major position), in the case's layout
            wrong = h.ref.copy()
            w = (int(h.row_off[2]) + 1) * 4 + 3
            wrong[w] += 1e-9 + h.ref_abs[w]
            ok, err, detail = pyrun.check(h.to_layout(wrong, h.m, h.row_off), h, "first run")
            self.assertFalse(ok)
            self.assertRegex(detail, r"^first run: matrix 2 row 1 col 3: got ")
            # the poison: an unwritten element is NaN and fails as not finite
            poisoned = good.copy()
            poisoned[-1] = np.nan
            ok, err, detail = pyrun.check(poisoned, h, "after the last timed sample")
            self.assertFalse(ok)
            self.assertIsNone(err)
            self.assertIn("(not finite: unwritten or overflow)", detail)

    def test_bf16_rounds_to_nearest_even_from_double(self):
        x = np.array([1 + 2 ** -8, 1 + 3 * 2 ** -8, 1 + 2 ** -8 + 2 ** -40, -(1 + 2 ** -8 + 2 ** -40), 1 + 2 ** -8 - 2 ** -40, 0.0, np.inf, 3.5e38])
        self.assertEqual(pyrun.to_bf16(x).tolist(), [1.0, 1 + 2 ** -6, 1 + 2 ** -7, -(1 + 2 ** -7), 1.0, 0.0, math.inf, math.inf])
        self.assertTrue(math.isnan(pyrun.to_bf16(np.array([np.nan]))[0]))
        r = pyrun.to_bf16(np.random.default_rng(4).uniform(-1, 1, 10000))
        self.assertTrue((r.view(np.uint32) & 0xFFFF == 0).all())

    def test_16bit_tolerances_and_the_f16_floor(self):
        self.assertEqual((pyrun.tolerance("f16"), pyrun.tolerance("bf16")), (1e-3, 8e-3))
        mats = [(1, 1, np.array([0, 1]), np.array([0]), np.array([1.0]))]
        for prec, tol in (("f16", 1e-3), ("bf16", 8e-3)):
            h = pyrun.HostBatch(mats, 1, prec, "row", 1)
            self.assertTrue(pyrun.check(h.ref * (1 + 0.9 * tol), h, "x")[0])
            self.assertFalse(pyrun.check(h.ref * (1 + 1.1 * tol), h, "x")[0])
        # f16: an output in the subnormal range is normalized by at least 2^-14 (its absolute rounding is 2^-25)
        tiny = [(1, 1, np.array([0, 1]), np.array([0]), np.array([2.0 ** -12]))]
        h = pyrun.HostBatch(tiny, 1, "f16", "row", 1)
        self.assertLess(abs(h.ref[0]), 2.0 ** -12)
        self.assertTrue(pyrun.check(h.ref + 2.0 ** -25, h, "x")[0])
        self.assertFalse(pyrun.check(h.ref + 2.0 ** -20, h, "x")[0])
        self.assertEqual(pyrun.HostBatch(mats, 4, "bf16", "row", 1).bytes_moved(), 1 * 6 + 2 * 4 + 2 * 4 * 2)

    def test_f32_tolerance_is_the_native_one(self):
        self.assertEqual((pyrun.tolerance("f32"), pyrun.tolerance("f64")), (1e-4, 1e-12))
        mats = [(1, 1, np.array([0, 1]), np.array([0]), np.array([1.0]))]
        h = pyrun.HostBatch(mats, 1, "f32", "row", 1)
        self.assertTrue(pyrun.check(h.ref * (1 + 0.9e-4), h, "x")[0])
        self.assertFalse(pyrun.check(h.ref * (1 + 1.1e-4), h, "x")[0])

    def test_runner_without_torch_reports_not_applicable_lines(self):
        try:
            import torch  # noqa: F401
            self.skipTest("torch is installed here: the not-applicable path is not reachable")
        except ImportError:
            pass
        p = os.path.join(self.dir, "b.spb")
        write_spb(p, random_batch(np.random.default_rng(2), 3, (4, 4), 2))
        r = subprocess.run([sys.executable, os.path.join(ROOT, "cuda", "python", "pyrun.py"), "spmm", "--input", p, "--nb", "8,16",
                            "--methods", "torch-sparse-loop,torch-blockdiag"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = [json.loads(x) for x in r.stdout.splitlines()]
        self.assertEqual([x["type"] for x in lines], ["env", "result", "result", "result", "result", "done"])
        res = lines[1:-1]
        self.assertEqual([(x["method"], x["params"]["nb"]) for x in res],
                         [("torch-sparse-loop", 8), ("torch-blockdiag", 8), ("torch-sparse-loop", 16), ("torch-blockdiag", 16)])
        for x in res:
            self.assertEqual((x["status"], x["family"]), ("not_applicable", "peer"))
            self.assertRegex(x["reason"], r"^PyTorch is not importable here")
        bad = subprocess.run([sys.executable, os.path.join(ROOT, "cuda", "python", "pyrun.py"), "spmm", "--input", p, "--methods", "torch-nope"],
                             capture_output=True, text=True)
        self.assertEqual(bad.returncode, 2)
        self.assertIn("unknown framework peer 'torch-nope'", bad.stderr)


    def test_sampling_rules_are_the_native_ones(self):
        # fixed count; auto stops by noise on steady samples and by timeout on noisy ones; bad --samples refused
        S = pyrun.Sampling
        calls = []
        fixed, info = S("7", 0.5, 10, 0.0, 10.0, False).collect(lambda: calls.append(1), lambda: 1.0)
        self.assertEqual((len(fixed), len(calls), info["rule"], info["samples"]), (7, 7, "samples", "7"))
        steady, info = S("auto", 0.5, 10, 0.0, 10.0, False).collect(lambda: None, lambda: 2.0)
        self.assertEqual((len(steady), info["rule"], info["min_samples"]), (10, "noise", 10))
        rng = random.Random(1)  # uniform in [1, 9]: the median's error falls as 0.74/sqrt(n), far above 0.5 % in 0.05 s
        noisy, info = S("auto", 0.5, 10, 0.0, 0.05, False).collect(lambda: None, lambda: rng.uniform(1.0, 9.0))
        self.assertEqual(info["rule"], "timeout")
        self.assertGreater(info["noise_pct"], 0.5)
        with self.assertRaises(ValueError):
            S("0", 0.5, 10, 0.0, 10.0, False)
        self.assertEqual(S.noise([1.0, 1.0, 1.0, 3.0]), 0.0)  # MAD: one outlier does not count
        self.assertEqual(S.noise([2.0]), math.inf)


if __name__ == "__main__":
    unittest.main()
