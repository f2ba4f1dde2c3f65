#!/usr/bin/env python3
"""Summarizes spbench-spmm-cuda JSON lines: one table row per result, fastest first per case.
usage: summarize_spmm.py [--check] FILE.jsonl...   (--check: exit 1 on any failed/error result
or unparsable line)"""
import json, statistics, sys

def main(argv):
    check = '--check' in argv
    files = [a for a in argv if a != '--check']
    bad = 0
    for path in files:
        rows, env, done = [], None, False
        for n, line in enumerate(open(path), 1):
            line = line.strip()
            if not line:
                continue
            try:
                o = json.loads(line)
            except ValueError:
                print(f'{path}:{n}: not JSON: {line[:120]}'); bad += 1; continue
            if o['type'] == 'env': env = o
            elif o['type'] == 'done': done = True
            elif o['type'] == 'result': rows.append(o)
        if not done:
            print(f'{path}: no done line'); bad += 1
        print(f'== {path}')
        cases = {}
        for r in rows:
            cases.setdefault((r['params']['nb'], r['params']['mode'], r['params']['precision'], r['params']['layout']), []).append(r)
        for key, rs in cases.items():
            def med(r): return statistics.median(r['samples_ms']) if r['samples_ms'] else float('inf')
            rs.sort(key=med)
            print(f'-- nb={key[0]} mode={key[1]} {key[2]} layout={key[3]} batch={rs[0]["params"]["batch"]}')
            print(f'{"method":26} {"status":14} {"median_us":>10} {"min_us":>9} {"spread%":>8} {"GFLOPS":>9} {"GB/s":>8} {"peakMB":>8} {"max_err":>9} reps  note')
            for r in rs:
                st = r['status']
                if st in ('failed', 'error'): bad += 1
                s = r['samples_ms']
                info = r.get('info', {})
                note = info.get('alg', '') or ''
                if r.get('reason'): note += ' ' + r['reason'][:110]
                if r['verify'].get('detail'): note += ' ' + r['verify']['detail'][:140]
                if s:
                    m = statistics.median(s); mn = min(s)
                    spread = 100 * (max(s) - mn) / m if m > 0 else 0
                    print(f'{r["method"]:26} {st:14} {m*1e3:10.2f} {mn*1e3:9.2f} {spread:8.1f} {r["flops"]/m/1e6:9.1f} {r["bytes_moved"]/m/1e6:8.1f} '
                          f'{r["peak_mem_bytes"]/1e6:8.2f} {r["verify"]["max_rel_err"] or 0:9.2e} {info.get("reps_per_sample", "")!s:4}  {note}')
                else:
                    print(f'{r["method"]:26} {st:14} {"-":>10} {"-":>9} {"-":>8} {"-":>9} {"-":>8} {r["peak_mem_bytes"]/1e6:8.2f} {"-":>9} {"":4}  {note}')
    if check:
        print(f'CHECK: {bad} failed/error/bad lines')
        return 1 if bad else 0
    return 0

if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
