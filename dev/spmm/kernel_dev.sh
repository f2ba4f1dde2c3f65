#!/bin/bash
# Development call for one of our SpMM kernels (GPU machine, from the repository root, OUT set):
#   METHOD=batched-tile SWEEP=dev/spmm/tile-sweep.json bash dev/spmm/kernel_dev.sh [test] [verify] [san] [sweep] [l2]
# test: GPU tests of SpMM; verify: METHOD on odd and dense-ish batches, every precision and layout, odd nb
# (each result verified against the float64 reference); san: memcheck/racecheck of METHOD on the same;
# sweep: $SWEEP (default dev/spmm/mma-sweep.json); l2: dev/spmm/l2-sweep.json with and without SPB_SPMM_L2=off.
# Logs under $OUT (tarred).
: "${OUT:?OUT must be set}"
METHOD=${METHOD:-batched-mma}
source .carry/node-env.sh
export SPBENCH_CACHE_DIR=/tmp/spbench-cache CI=1 SPBENCH_PYTHON=${SPBENCH_PYTHON:-/nonexistent/python3} SPBENCH_COMMIT=$(cat .commit 2>/dev/null)
R=$OUT/dev; mkdir -p "$R"
mkdir -p /tmp/sbbin; printf '#!/bin/sh\nexec node %s/bin/spbench.js "$@"\n' "$PWD" >/tmp/sbbin/sb; chmod +x /tmp/sbbin/sb; export PATH=/tmp/sbbin:$PATH
t() { local n=$1; shift; local t0=$SECONDS; timeout "${STEP_TIMEOUT:-400}" "$@" >"$R/$n.log" 2>&1; echo "$n rc=$? $((SECONDS - t0))s" | tee -a "$R/steps.txt"; }
t build sb build
spmm=$(ls /tmp/spbench-cache/bin/spbench-spmm-cuda-* | head -1)
sb gen --batch 7 --dim 1:70 --nnz-row 0:5 --seed 3 -o /tmp/odd.spb >/dev/null 2>&1 || sb gen --batch 7 --dim 1:70 --nnz-row 1:5 --seed 3 -o /tmp/odd.spb >/dev/null
sb gen --batch 9 --dim 40:150 --nnz-row 1:40 --seed 5 -o /tmp/dense.spb >/dev/null
for p in "$@"; do case $p in
test) t gpu-test node scripts/gpu-test.mjs --only spmm --log "$R/gpu-test-detail.log" ;;
verify)
  for f in odd dense; do for l in row col; do for pr in f32 f64 f16 bf16; do
    t "verify-$f-$l-$pr" "$spmm" spmm --input /tmp/$f.spb --nb 1,3,8,17,33,64,70,130 --precision $pr --layout $l --methods $METHOD,auto --mode kernel --warmup 0 --samples 1
  done; done; done
  echo "verify: results that failed: $(cat "$R"/verify-*.log | grep -c '"passed":false'), ok: $(cat "$R"/verify-*.log | grep -c '"status":"ok"')" ;;
san)
  for f in odd dense; do
    t "memcheck-$f-f32-row" compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/$f.spb --nb 17,33,70 --precision f32 --methods $METHOD --mode kernel --warmup 0 --samples 1
    t "memcheck-$f-f64-col" compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/$f.spb --nb 1,17,70 --precision f64 --layout col --methods $METHOD --mode kernel --warmup 0 --samples 1
    t "memcheck-$f-f16-col" compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/$f.spb --nb 3,64 --precision f16 --layout col --methods $METHOD --mode kernel --warmup 0 --samples 1
    t "racecheck-$f-f32-col" compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/$f.spb --nb 17,70 --precision f32 --layout col --methods $METHOD --mode kernel --warmup 0 --samples 1
    t "racecheck-$f-f64-row" compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/$f.spb --nb 17,64 --precision f64 --methods $METHOD --mode kernel --warmup 0 --samples 1
    t "racecheck-$f-bf16-row" compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/$f.spb --nb 8,130 --precision bf16 --methods $METHOD --mode kernel --warmup 0 --samples 1
  done ;;
sweep) t sweep sb run "${SWEEP:-dev/spmm/mma-sweep.json}" --backend cuda --json "$R/sweep.json" ;;
l2) t l2-on sb run dev/spmm/l2-sweep.json --backend cuda --json "$R/l2-on.json"
    SPB_SPMM_L2=off t l2-off sb run dev/spmm/l2-sweep.json --backend cuda --json "$R/l2-off.json" ;;
esac; done
tar czf "$OUT/dev.tgz" -C "$OUT" dev && rm -rf "$R"
