#!/usr/bin/env python3
"""Summarises spbench-spgemm-cuda JSON lines (files given on the command line) as a Markdown table:
median time, GFLOPS, peak memory per method, and ours against the fastest cuSPARSE algorithm."""
import json, math, statistics, sys

rows = []
for path in sys.argv[1:]:
    for line in open(path):
        line = line.strip()
        if not line.startswith('{'):
            continue
        o = json.loads(line)
        if o.get('type') == 'result':
            rows.append(o)

cases = {}
for r in rows:
    p = r['params']
    key = (p['a'] + ('' if p['b'] == 'A' else '*' + p['b']), p['precision'])
    cases.setdefault(key, []).append(r)

print('| matrix | prec | method | status | median ms | GFLOPS | peak MB | vs best cuSPARSE (time) | mem / cusparse-alg1 | note |')
print('|---|---|---|---|---|---|---|---|---|---|')
geo = {}
for (mat, prec), rs in cases.items():
    med = {r['method']: statistics.median(r['samples_ms']) for r in rs if r['status'] == 'ok' and r['samples_ms']}
    peers = [v for k, v in med.items() if k.startswith('cusparse')]
    best = min(peers) if peers else None
    alg1 = next((r['peak_mem_bytes'] for r in rs if r['method'] == 'cusparse-alg1' and r['status'] == 'ok'), None)
    for r in rs:
        m = r['method']
        t = med.get(m)
        gf = r['flops'] / (t * 1e6) if t else None
        sp = best / t if (t and best and not m.startswith('cusparse')) else None
        if sp:
            geo.setdefault((m, prec), []).append(sp)
        mem = r['peak_mem_bytes'] / alg1 if alg1 and not m.startswith('cusparse') else None
        note = r.get('reason') or r['verify'].get('detail') or ''
        bd = r.get('breakdown_ms')
        if bd:
            note += ' breakdown ' + ' '.join(f"{k}={v:.3f}" for k, v in bd.items())
        print(f"| {mat} | {prec} | {m} | {r['status']} | {t:.4f} | {gf:.1f} | {r['peak_mem_bytes']/1e6:.1f} | {sp and f'{sp:.2f}x' or '-'} | {mem and f'{mem:.2f}' or '-'} | {note[:160]} |"
              if t else f"| {mat} | {prec} | {m} | {r['status']} | - | - | {r['peak_mem_bytes']/1e6:.1f} | - | - | {note[:160]} |")
print()
for (m, prec), v in sorted(geo.items()):
    g = math.exp(sum(math.log(x) for x in v) / len(v))
    print(f"geomean speedup of {m} {prec} over the fastest cuSPARSE algorithm: {g:.2f}x over {len(v)} matrices (min {min(v):.2f}x)")
