#!/bin/bash
# Development call for one of our SpMM kernels (GPU machine, from the repository root, OUT set):
#   METHOD=batched-tile SWEEP=dev/spmm/tile-sweep.json bash dev/spmm/kernel_dev.sh [test] [verify] [san] [sweep] [l2]
# test: GPU tests of SpMM; verify: METHOD on odd, dense-ish and wide (k up to 400) batches, every precision and layout, odd nb
# (each result verified against the float64 reference); san: memcheck/racecheck of METHOD on the same;
# sweep: each suite in $SWEEP (default dev/spmm/mma-sweep.json); wide: the spmm-wide cases named in $WIDE_CASES; l2: dev/spmm/l2-sweep.json with and without SPB_SPMM_L2=off.
# variants: $SWEEP on builds with SPB_TILE_STAGES[:BM] from $VARIANTS (chunk rows: the plan's tile_k); ncu: sections for $NCU_CELLS.
# Logs under $OUT (tarred).
: "${OUT:?OUT must be set}"
METHOD=${METHOD:-batched-mma}
source .carry/node-env.sh
export SPBENCH_CACHE_DIR=/tmp/spbench-cache CI=1 SPBENCH_PYTHON=${SPBENCH_PYTHON:-/nonexistent/python3} SPBENCH_COMMIT=$(cat .commit 2>/dev/null)
R=$OUT/dev; mkdir -p "$R"
mkdir -p /tmp/sbbin; printf '#!/bin/sh\nexec node %s/bin/spbench.js "$@"\n' "$PWD" >/tmp/sbbin/sb; chmod +x /tmp/sbbin/sb; export PATH=/tmp/sbbin:$PATH
t() { local n=$1; shift; local t0=$SECONDS; timeout "${STEP_TIMEOUT:-400}" "$@" >"$R/$n.log" 2>&1; echo "$n rc=$? $((SECONDS - t0))s" | tee -a "$R/steps.txt"; }
vflags() { IFS=: read -r st _ <<<"$1"; echo "${st:+-DSPB_TILE_STAGES=$st}"; }
vcache() { echo "/tmp/c-$(vflags "$1" | tr -c 'A-Za-z0-9\n' _)"; }  # one build a flag set
for f in $(for v in ${VARIANTS:-}; do echo "$v" | cut -d: -f1; done | sort -u); do
  (SPBENCH_CACHE_DIR=$(vcache "$f") SPBENCH_EXTRA_FLAGS="$(vflags "$f")" t "build-$f" sb build) &  # beside the main build
done
[ -n "${NO_MAIN_BUILD:-}" ] || t build sb build  # variants only: NO_MAIN_BUILD=1
wait
spmm=$(ls /tmp/spbench-cache/bin/spbench-spmm-cuda-* 2>/dev/null | head -1)
sb gen --batch 7 --dim 1:70 --nnz-row 0:5 --seed 3 -o /tmp/odd.spb >/dev/null 2>&1 || sb gen --batch 7 --dim 1:70 --nnz-row 1:5 --seed 3 -o /tmp/odd.spb >/dev/null
sb gen --batch 9 --dim 40:150 --nnz-row 1:40 --seed 5 -o /tmp/dense.spb >/dev/null
sb gen --batch 5 --dim 100:400 --nnz-row 1:90 --seed 9 -o /tmp/wide.spb >/dev/null  # A_i wider than batched-tile's panel
for p in "$@"; do case $p in
test) t gpu-test node scripts/gpu-test.mjs --only spmm --log "$R/gpu-test-detail.log" ;;
verify)
  for f in odd dense wide; do for l in row col; do for pr in f32 f64 f16 bf16; do
    t "verify-$f-$l-$pr" "$spmm" spmm --input /tmp/$f.spb --nb 1,3,8,17,33,64,70,130 --precision $pr --layout $l --methods $METHOD,auto --mode kernel --warmup 0 --samples 1
  done; done; done
  for l in row col; do for pr in f32 f64; do  # several column tiles a block over several panels
    SPB_SPMM_TILE=3 t "verify-wide-per3-$l-$pr" "$spmm" spmm --input /tmp/wide.spb --nb 70,130 --precision $pr --layout $l --methods $METHOD --mode kernel --warmup 0 --samples 1
  done; done
  echo "verify: results that failed: $(cat "$R"/verify-*.log | grep -c '"passed":false'), ok: $(cat "$R"/verify-*.log | grep -c '"status":"ok"')" ;;
san)
  for f in odd dense wide; do
    t "memcheck-$f-f32-row" compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/$f.spb --nb 17,33,70 --precision f32 --methods $METHOD --mode kernel --warmup 0 --samples 1
    t "memcheck-$f-f64-col" compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/$f.spb --nb 1,17,70 --precision f64 --layout col --methods $METHOD --mode kernel --warmup 0 --samples 1
    t "memcheck-$f-f16-col" compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/$f.spb --nb 3,64 --precision f16 --layout col --methods $METHOD --mode kernel --warmup 0 --samples 1
    t "racecheck-$f-f32-col" compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/$f.spb --nb 17,70 --precision f32 --layout col --methods $METHOD --mode kernel --warmup 0 --samples 1
    t "racecheck-$f-f64-row" compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/$f.spb --nb 17,64 --precision f64 --methods $METHOD --mode kernel --warmup 0 --samples 1
    t "racecheck-$f-bf16-row" compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/$f.spb --nb 8,130 --precision bf16 --methods $METHOD --mode kernel --warmup 0 --samples 1
  done ;;
wide) t wide sb run reports/suites/spmm-wide.json --cases "${WIDE_CASES:?WIDE_CASES: names of spmm-wide cases}" --backend cuda --json "$R/wide.json" ;;
variants)  # VARIANTS="STAGES[:BM] ...": batched-tile built with SPB_TILE_STAGES, run with SPB_SPMM_TILE_BM=BM, $SWEEP on each
  for v in ${VARIANTS:?}; do SPB_SPMM_TILE_BM=$(echo "$v" | cut -d: -f2) SPBENCH_CACHE_DIR=$(vcache "$v") SPBENCH_EXTRA_FLAGS="$(vflags "$v")" t "sweep-$v" sb run "${SWEEP:?}" --backend cuda --json "$R/sweep-$v.json"; done ;;
ncu)  # NCU_CELLS="batch:dim:nnzrow:nb:precision:layout[:method[:kernel-regex]] ...": ncu sections of the method's (METHOD) kernel on each
  for c in ${NCU_CELLS:?}; do IFS=: read -r b d z n p l m k <<<"$c"
    sb gen --batch "$b" --dim "$d" --nnz-row "$z" --seed 21 -o /tmp/ncu.spb >/dev/null
    t "ncu-$c" ncu --clock-control none -k "regex:${k:-${NCU_KERNEL:-tile_kernel}}" -c 1 --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis --section LaunchStats --section SchedulerStats --section ComputeWorkloadAnalysis --section SourceCounters \
      "$spmm" spmm --input /tmp/ncu.spb --nb "$n" --precision "$p" --layout "$l" --methods "${m:-$METHOD}" --mode kernel --warmup 0 --samples 1
  done ;;
sweep) for f in ${SWEEP:-dev/spmm/mma-sweep.json}; do n=$(basename "$f" .json); t "sweep-$n" sb run "$f" --backend cuda --json "$R/sweep-$n.json"; done ;;
l2) t l2-on sb run dev/spmm/l2-sweep.json --backend cuda --json "$R/l2-on.json"
    SPB_SPMM_L2=off t l2-off sb run dev/spmm/l2-sweep.json --backend cuda --json "$R/l2-off.json" ;;
esac; done
tar czf "$OUT/dev.tgz" -C "$OUT" dev && rm -rf "$R"
