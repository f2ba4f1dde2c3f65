#!/usr/bin/env bash
# GPU check of the Python runner (cuda/python/pyrun.py): the framework peers and the example Python
# plugin on the GPU machine, kernel / e2e / graph, on (100, 64, 3, 64) and a mixed batch. Run from the
# repository root with .carry (Node) and dist carried:  OUT=... bash dev/pyrun/gpu_check.sh   (≤ 90 s)
# It builds nothing native (torch methods only, so the CLI skips the spmm driver). Results in $OUT:
#   torch.txt        torch / CUDA versions seen by python3
#   raw-*.jsonl      the runner's own lines (peers, called directly, as spbench would)
#   cli-*.json/.txt  the same through the CLI (zod-checked protocol, --kernel .py dispatch, result file)
#   summary.txt      one row per result: method, mode, nb, status, median µs, max_rel_err, reason
#   steps.txt        one status line per step
set -u
: "${OUT:?OUT must be set}"
source .carry/node-env.sh
export SPBENCH_CACHE_DIR=/tmp/spbench-cache CI=1 SPBENCH_KERNEL_TIMEOUT=60
CLI="node bin/spbench.js"
PEERS=torch-sparse-loop,torch-sparse-bmm,torch-blockdiag
PLUGIN=examples/plugins/gather_spmm.py
mkdir -p "$OUT"
T0=$SECONDS
step() { # step NAME CMD... : stdout+stderr to $OUT/NAME.txt, one status line; skipped past 80 s
  local name=$1; shift
  if (( SECONDS - T0 > 80 )); then echo "$name skipped (time)" | tee -a "$OUT/steps.txt"; return; fi
  local t=$SECONDS
  timeout 60 "$@" >"$OUT/$name.txt" 2>&1
  printf '%-22s rc=%-3s %3ss\n' "$name" "$?" "$((SECONDS - t))" | tee -a "$OUT/steps.txt"
}
python3 -c 'import torch, numpy; print("torch", torch.__version__, "cuda", torch.version.cuda, "available", torch.cuda.is_available(), torch.cuda.get_device_name(0) if torch.cuda.is_available() else "")' >"$OUT/torch.txt" 2>&1
cat "$OUT/torch.txt"
step gen-uniform $CLI gen --batch 100 --dim 64 --nnz-row 3 --seed 1 -o /tmp/pyrun-u.spb
step gen-mixed $CLI gen --batch 100 --dim 16:128 --nnz-row 1:6 --seed 1 -o /tmp/pyrun-m.spb
# the runner directly, graph mode (the one most likely to say not applicable): its raw lines and stderr
step raw-u-graph python3 cuda/python/pyrun.py spmm --input /tmp/pyrun-u.spb --nb 64 --mode graph --warmup 3 --samples 20 --methods $PEERS
cp "$OUT/raw-u-graph.txt" "$OUT/raw-u-graph.jsonl"
# through the CLI: peers + the .py plugin, every mode, uniform and mixed; f64 and col-major once
step cli-uniform $CLI spmm --backend cuda --batch 100 --dim 64 --nnz-row 3 --nb 64 --mode kernel,e2e,graph --methods $PEERS --kernel $PLUGIN --warmup 3 --json "$OUT/cli-uniform.json"
step cli-mixed $CLI spmm --backend cuda --batch 100 --dim 16:128 --nnz-row 1:6 --nb 64 --mode kernel,graph --methods $PEERS --kernel $PLUGIN --warmup 3 --json "$OUT/cli-mixed.json"
step cli-f64-col $CLI spmm --backend cuda --batch 100 --dim 64 --nnz-row 3 --nb 16 --precision f64 --layout col --mode kernel --methods $PEERS --kernel $PLUGIN --warmup 3 --json "$OUT/cli-f64-col.json"
python3 - "$OUT" >"$OUT/summary.txt" 2>&1 <<'PY'
import glob, json, statistics, sys
out = sys.argv[1]
rows = []
for f in sorted(glob.glob(f"{out}/cli-*.json")):
    for c in json.load(open(f))["cases"]:
        for r in c["results"]:
            rows.append((f.split("/")[-1], r["method"], c["params"].get("mode"), c["params"].get("nb"), r["status"], r.get("samples_ms") or [], (r.get("verify") or {}).get("max_rel_err"), r.get("reason", "")))
for f in sorted(glob.glob(f"{out}/raw-*.jsonl")):
    for line in open(f):
        if line.startswith('{"type":"result"'):
            r = json.loads(line)
            rows.append((f.split("/")[-1], r["method"], r["params"]["mode"], r["params"]["nb"], r["status"], r["samples_ms"], r["verify"]["max_rel_err"], r.get("reason", "")))
for name, m, mode, nb, st, s, err, why in rows:
    med = f"{statistics.median(s) * 1000:9.2f} us" if s else "        -   "
    print(f"{name:18} {m:18} {mode:6} nb={nb!s:5} {st:15} {med}  err={err!s:10}  {why[:150]}")
PY
cat "$OUT/summary.txt"
echo "total $((SECONDS - T0)) s"
