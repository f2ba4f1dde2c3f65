#!/usr/bin/env python3
"""Per-cell summary of an SpMM suite result file (spmm-wide and the dev sweeps): the best of ours (family
"ours", auto left out) against the fastest peer, and auto against the best of ours.

  python3 dev/spmm/wide_cells.py RESULT.json [--below R]     cells (ratio below R, default all), then totals
  python3 dev/spmm/wide_cells.py OLD.json NEW.json           cells whose ratio moved > 5 % or whose auto choice changed, then totals of both
"""
import json
import math
import sys


def cells(path):
    out = {}
    for c in json.load(open(path))['cases']:
        ok = [r for r in c['results'] if r['status'] == 'ok']
        ours = [r for r in ok if r['family'] == 'ours' and r['method'] != 'auto']
        peers = [r for r in ok if r['family'] == 'peer']
        auto = [r for r in ok if r['method'] == 'auto']
        if not ours:
            continue
        bo = min(ours, key=lambda r: r['median_ms'])
        bp = min(peers, key=lambda r: r['median_ms']) if peers else None
        out[c['id']] = {
            'ratio': bp['median_ms'] / bo['median_ms'] if bp else None,
            'ours': bo['method'], 'ours_us': bo['median_ms'] * 1e3,
            'peer': bp['method'] if bp else '-', 'peer_us': bp['median_ms'] * 1e3 if bp else 0.0,
            'auto': auto[0]['median_ms'] / bo['median_ms'] if auto else None,
            'choice': auto[0].get('info', {}).get('choice') if auto else None,
        }
    return out


def totals(cs):
    r = [v['ratio'] for v in cs.values() if v['ratio']]
    a = [v['auto'] for v in cs.values() if v['auto']]
    g = math.exp(sum(math.log(x) for x in r) / len(r)) if r else float('nan')
    return f"ours >= 1x the fastest peer: {sum(x >= 1 for x in r)} / {len(r)}, geomean {g:.3f}; auto within 10 % of our best: {sum(x <= 1.1 for x in a)} / {len(a)}"


def main(argv):
    if len(argv) >= 2 and not argv[1].startswith('--'):
        old, new = cells(argv[0]), cells(argv[1])
        for k, v in new.items():
            o = old.get(k)
            if not o or not o['ratio'] or not v['ratio']:
                continue
            if abs(math.log(v['ratio'] / o['ratio'])) > 0.05 or o['choice'] != v['choice']:
                print(f"{k[:64]:64} {o['ratio']:.2f} -> {v['ratio']:.2f}  {o['ours']} {o['ours_us']:.1f} -> {v['ours']} {v['ours_us']:.1f}  peer {o['peer']} {o['peer_us']:.1f} -> {v['peer']} {v['peer_us']:.1f}  auto {o['choice']} -> {v['choice']}")
        print('old:', totals(old))
        print('new:', totals(new))
        return
    below = float(argv[argv.index('--below') + 1]) if '--below' in argv else math.inf
    cs = cells(argv[0])
    for k, v in sorted(cs.items(), key=lambda kv: kv[1]['ratio'] or math.inf):
        if v['ratio'] is not None and v['ratio'] < below:
            auto = f"{v['auto']:.2f} {v['choice']}" if v['auto'] else '-'
            print(f"{v['ratio']:.2f} {k[:64]:64} {v['ours']:18} {v['ours_us']:9.1f}  {v['peer']:20} {v['peer_us']:9.1f}  auto/best {auto}")
    print(totals(cs))


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
