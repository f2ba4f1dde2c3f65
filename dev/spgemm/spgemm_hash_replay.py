#!/usr/bin/env python3
"""CPU replay of the shared-table linear probing of hash SpGEMM on sampled rows of A*A: mean probes a product
per numeric group (rows banded by output nnz, table = smallest power of two with load <= 0.5), for seed 004's
hash (key*107) and the ones tried for hash-opt. No GPU needed: this is how v4's hash was chosen.
Usage: spgemm_hash_replay.py MATRIX.spb [ROWS_PER_GROUP]"""
import struct, sys
import numpy as np

def read_spb(path):  # first matrix of a .spb file (docs/binary-format.md): rows, cols, row_ptr, col_idx
    b = open(path, 'rb').read()
    ib = b[12]
    rows, cols, nnz = struct.unpack_from('<QQQ', b, 32)
    off = 56
    it = np.int32 if ib == 4 else np.int64
    rp = np.frombuffer(b, it, rows + 1, off)
    off = (off + (rows + 1) * ib + 7) // 8 * 8
    ci = np.frombuffer(b, it, nnz, off)
    return rows, cols, rp.astype(np.int64), ci.astype(np.int64)

M32 = 0xffffffff
HASHES = {
    'key*107 (seed 004)': lambda k, s: (k * 107) & ((1 << s) - 1),
    'key*107 + (key>>s)*phi (hash-opt v4)': lambda k, s: (k * 107 + (k >> s) * 0x9E3779B1) & ((1 << s) - 1),
    'fibonacci high bits': lambda k, s: ((k * 0x9E3779B1) & M32) >> (32 - s),
}

def mean_probes(keys, s, h):
    mask, table, total = (1 << s) - 1, {}, 0
    for k, p in zip(keys.tolist(), h(keys, s).tolist()):
        c = 1
        while True:
            t = table.get(p)
            if t is None: table[p] = k; break
            if t == k: break
            p = (p + 1) & mask; c += 1
        total += c
    return total / max(1, len(keys))

def main():
    rows, _, rp, ci = read_spb(sys.argv[1])
    per = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    rng = np.random.default_rng(1)
    def products(i):  # the row's product keys in a random order (the warps' interleaving is not modelled)
        parts = [ci[rp[a]:rp[a + 1]] for a in ci[rp[i]:rp[i + 1]]]
        k = np.concatenate(parts) if parts else np.zeros(0, np.int64)
        rng.shuffle(k)
        return k
    sample = rng.choice(rows, size=min(rows, 4000), replace=False)
    nnz = {int(i): len(np.unique(products(i))) for i in sample}
    lo = 17
    while lo <= 8192:
        hi = 2 * lo - 2 if lo > 17 else 64
        rs = [i for i in nnz if lo <= nnz[i] <= hi][:per]
        if rs:
            s = (2 * hi - 1).bit_length()  # table 2^s >= 2*hi: load <= 0.5
            keys = [products(i) for i in rs]
            res = {name: np.mean([mean_probes(k, s, h) for k in keys]) for name, h in HASHES.items()}
            print(f"nnz {lo}-{hi} table {1 << s} rows {len(rs)} products/row {np.mean([len(k) for k in keys]):.0f}: " +
                  ", ".join(f"{n} {v:.2f}" for n, v in res.items()), flush=True)
        lo = hi + 1

if __name__ == '__main__':
    main()
