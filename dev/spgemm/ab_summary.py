#!/usr/bin/env python3
"""Development only: A/B table of ab_classes.sh timing lines: hash-opt new vs old vs the fastest cuSPARSE algorithm."""
import json, math, statistics, sys
cases = {}
for line in open(sys.argv[1]):
    if not line.startswith('{"type":"result"'):
        continue
    r = json.loads(line)
    p = r['params']
    cases.setdefault((p['a'], p['precision']), {})[r['method']] = r
print('| matrix | prec | products | new ms | GFLOPS | old ms | new/old | best cuSPARSE | ms | × cuSPARSE | mem / alg1 | variants ms | breakdown |')
print('|---|---|---|---|---|---|---|---|---|---|---|---|---|')
geo = []
for (mat, prec), ms in cases.items():
    med = {k: statistics.median(r['samples_ms']) for k, r in ms.items() if r['status'] == 'ok' and r['samples_ms']}
    new = ms.get('hash-opt')
    peers = {k: v for k, v in med.items() if k.startswith('cusparse')}
    best = min(peers, key=peers.get) if peers else None
    t, o = med.get('hash-opt'), med.get('hash-opt-old')
    alg1 = ms.get('cusparse-alg1')
    mem = new['peak_mem_bytes'] / alg1['peak_mem_bytes'] if new and alg1 and alg1['status'] == 'ok' else None
    sp = peers[best] / t if t and best else None
    if sp: geo.append(sp)
    var = ' '.join(f"{k[9:]}={v:.3f}" for k, v in med.items() if k.startswith('hash-opt-') and k != 'hash-opt-old')
    bd = ' '.join(f"{k[:5]}={v:.3f}" for k, v in (new or {}).get('breakdown_ms', {}).items())
    st = '' if not new or new['status'] == 'ok' else f" **{new['status']}: {(new.get('reason') or new['verify'].get('detail') or '')[:80]}**"
    f = lambda x, d=3: f'{x:.{d}f}' if x is not None else '-'
    print(f"| {mat} | {prec} | {new['params']['products'] if new else '-'} | {f(t)}{st} | {f(new['flops']/(t*1e6),1) if t else '-'} | {f(o)} | {f(t/o if t and o else None,2)} | {best or '-'} | {f(peers.get(best))} | {f(sp,2)} | {f(mem,2)} | {var} | {bd} |")
if geo:
    print(f"\ngeomean × fastest cuSPARSE: {math.exp(sum(map(math.log, geo))/len(geo)):.2f} over {len(geo)} (min {min(geo):.2f})")
