#!/usr/bin/env python3
"""How far the best of ours could go against the fastest peer, cell by cell, under a simple floor: a cell cannot
take less than max(bytes_moved / copy bandwidth, an empty kernel's time). The ratio peer / floor is then an upper
bound on ours / peer in that cell, and its geomean an upper bound on the suite's (a generous one: the floor ignores
compute, latency and the L2, which only make the real floor higher).

  python3 dev/spmm/ceiling.py RESULT.json [--bw TB/s (3.0: a copy of the same bytes, H100)] [--empty us (0.87: an empty
  kernel a call in a 20-call graph, dev/spmm/graph_floor.cu on the H100)] [--list N (the N cells with the most headroom)]
"""
import json
import math
import sys


def arg(name, default):
    return float(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


def main():
    bw, empty, n = arg('--bw', 3.0) * 1e12, arg('--empty', 0.87) * 1e-6, int(arg('--list', 0))
    rows = []
    for c in json.load(open(sys.argv[1]))['cases']:
        ok = [r for r in c['results'] if r['status'] == 'ok']
        ours = [r for r in ok if r['family'] == 'ours' and r['method'] != 'auto']
        peers = [r for r in ok if r['family'] == 'peer']
        if not ours or not peers:
            continue
        peer = min(r['median_ms'] for r in peers) * 1e-3
        best = min(r['median_ms'] for r in ours) * 1e-3
        floor = max(min(r['bytes_moved'] for r in ok) / bw, empty)
        rows.append((peer / floor, peer / best, c['id']))
    g = lambda xs: math.exp(sum(math.log(x) for x in xs) / len(xs))
    ceil, now = [r[0] for r in rows], [r[1] for r in rows]
    print(f"{len(rows)} cells: geomean now {g(now):.3f}, ceiling {g(ceil):.3f} ({g(now) / g(ceil):.0%} of it); "
          f"ceiling below 2x in {sum(x < 2 for x in ceil)}, below 1x in {sum(x < 1 for x in ceil)}")
    for c, r, i in sorted(rows, key=lambda r: r[1] / r[0])[:n]:
        print(f"  now {r:5.2f} ceiling {c:6.2f} ({r / c:4.0%})  {i}")


if __name__ == '__main__':
    main()
