# Warp instructions of one kernel by how often they run (ncu source page, SASS, CSV from dev/spmm/bin_dev.sh prof):
# the groups are the kernel's loop levels (per warp once, per chunk, per column tile, ...), with stall samples and reasons.
#   python3 dev/spmm/sass_counts.py src-....csv [--list N]   (--list: the SASS lines executed N times)
import collections, csv, sys
rows = list(csv.reader(open(sys.argv[1])))
hdr, data = rows[1], rows[2:]
ix = {h: i for i, h in enumerate(hdr)}
cnt = lambda r, k: int(float(r[ix[k]] or 0))
by, st, n = collections.Counter(), collections.Counter(), collections.Counter()
for r in data:
    e = cnt(r, "Instructions Executed")
    by[e] += e; st[e] += cnt(r, "Warp Stall Sampling (All Samples)"); n[e] += 1
tot = sum(by.values())
print("warp instructions", tot, "stall samples", sum(st.values()))
for e in sorted(by):
    if e: print(f"run {e:>9} times: {n[e]:4d} static, {by[e]:>10d} executed ({by[e] / tot:.0%}), {st[e]} samples")
reasons = {h: sum(float(r[ix[h]] or 0) for r in data) for h in hdr if h.startswith("stall_") and "Not Issued" not in h}
print("stalls:", ", ".join(f"{k[6:]} {v:.0f}" for k, v in sorted(reasons.items(), key=lambda x: -x[1])[:8]))
if "--list" in sys.argv:
    want = int(sys.argv[sys.argv.index("--list") + 1])
    for r in data:
        if cnt(r, "Instructions Executed") == want: print(r[ix["Address"]][-5:], r[ix["Source"]])
