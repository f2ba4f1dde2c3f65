#!/usr/bin/env python3
"""Markdown table of the paper's figure grids from spbench-spmm-cuda JSON lines: per case and n_B,
GFLOPS (2*nnz*nB / median) of the best of each family, the cuSPARSE per-matrix loop, and speedups.
usage: figs_markdown.py FILE.jsonl... > figures.md"""
import json, os, statistics, sys

def best(rs, pred):
    ok = [r for r in rs if pred(r) and r['status'] == 'ok' and r['samples_ms']]
    if not ok: return None
    return max(ok, key=lambda r: r['flops'] / statistics.median(r['samples_ms']))

def gf(r): return r['flops'] / statistics.median(r['samples_ms']) / 1e6 if r else float('nan')

print('| case | n_B | mode | best ours (GFLOPS) | best paper kernel (GFLOPS) | best peer (GFLOPS) | cusparse-loop GFLOPS | ours / best peer | ours / loop |')
print('| --- | ---: | --- | --- | --- | --- | ---: | ---: | ---: |')
for path in sys.argv[1:]:
    rows = [json.loads(l) for l in open(path) if l.startswith('{"type":"result"')]
    by_nb = {}
    for r in rows: by_nb.setdefault(r['params']['nb'], []).append(r)
    for nb in sorted(by_nb):
        rs = by_nb[nb]
        o = best(rs, lambda r: r['family'] == 'ours'); p = best(rs, lambda r: r['family'] == 'paper')
        q = best(rs, lambda r: r['family'] == 'peer'); l = best(rs, lambda r: r['method'] == 'cusparse-loop')
        name = os.path.basename(path).replace('.jsonl', '')
        fmt = lambda r: f"{r['method']} {gf(r):.0f}" if r else 'n/a'
        print(f"| {name} | {nb} | {rs[0]['params']['mode']} | {fmt(o)} | {fmt(p)} | {fmt(q)} | {gf(l):.1f} | {gf(o)/gf(q):.2f}x | {gf(o)/gf(l):.0f}x |")
