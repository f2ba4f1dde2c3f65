#!/usr/bin/env bash
# One GPU-machine session of spbench (tool `device`), run from the repo root with .carry (Node) and
# dist (compiled CLI + bundle) carried. Phase "check": build, doctor, GPU tests, sanitizers, the
# acceptance commands and the CI smoke baseline + compare. Phase "suites": the paper and SpGEMM suites
# and their reports. Everything lands in $OUT/<phase>.tgz plus a short summary on stdout.
set -u
phase=${1:?usage: gpu-session.sh check|suites}
: "${OUT:?OUT must be set}"
source .carry/node-env.sh
export SPBENCH_CACHE_DIR=/tmp/spbench-cache CI=1
R=$OUT/$phase; mkdir -p "$R"
sb() { node bin/spbench.js "$@"; }
step() { # step NAME CMD... : runs, logs to $R/NAME.log, prints one status line
  local name=$1; shift
  local t0=$SECONDS
  "$@" >"$R/$name.log" 2>&1; local rc=$?
  printf '%-28s rc=%-3s %4ss\n' "$name" "$rc" "$((SECONDS - t0))" | tee -a "$R/steps.txt"
}
{ echo "commit: $(cat .commit 2>/dev/null || echo unknown)"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nvcc --version | tail -2; } >"$R/machine.txt" 2>&1
step build sb build
case $phase in
check)
  step doctor sb doctor
  step gpu-test node scripts/gpu-test.mjs --log "$R/gpu-test-detail.log"
  sb gen --batch 7 --dim 1:70 --nnz-row 0:5 --seed 3 -o /tmp/odd.spb >/dev/null 2>&1 || sb gen --batch 7 --dim 1:70 --nnz-row 1:5 --seed 3 -o /tmp/odd.spb
  sb gen stencil:dims=2,n=30,points=9 -o /tmp/st.spb >/dev/null
  spmm=$(ls /tmp/spbench-cache/bin/spbench-spmm-cuda-* | head -1); spgemm=$(ls /tmp/spbench-cache/bin/spbench-spgemm-cuda-* | head -1)
  for tool in memcheck racecheck; do
    step "san-spmm-$tool" compute-sanitizer --tool $tool --error-exitcode 9 "$spmm" spmm --input /tmp/odd.spb --nb 17,33 --precision f32 --methods all --mode kernel --warmup 0 --samples 1
    step "san-spgemm-$tool" compute-sanitizer --tool $tool --error-exitcode 9 "$spgemm" spgemm --a /tmp/st.spb --precision f32 --methods all --warmup 0 --samples 1
  done
  step spmm-readme sb spmm --batch 100 --dim 64 --json "$R/spmm-readme.json"
  step spmm-targets sb spmm --batch 100 --dim 64,256 --nnz-row 3 --nb 64 --mode graph --json "$R/spmm-targets.json"
  step spmm-huge sb spmm --batch 10000 --dim 64 --nnz-row 3 --nb 64 --mode graph --json "$R/spmm-huge.json"
  step spgemm-rmat sb spgemm --gen rmat:scale=16,ef=8 --breakdown --explain --json "$R/spgemm-rmat16.json"
  step smoke-base sb run reports/suites/ci-smoke.json --backend cuda --json "$R/ci-smoke.json"
  step smoke-new sb run reports/suites/ci-smoke.json --backend cuda --json "$R/ci-smoke-new.json"
  step smoke-compare sb compare "$R/ci-smoke.json" "$R/ci-smoke-new.json" --strict-env --markdown "$R/ci-smoke-compare.md"
  ;;
suites)
  step paper-spmm sb run reports/suites/paper-spmm.json --backend cuda --json "$R/paper-spmm.json"
  step spgemm-suite sb run reports/suites/spgemm.json --backend cuda --json "$R/spgemm.json"
  for s in paper-spmm spgemm; do
    [ -f "$R/$s.json" ] && step "report-$s" sb report "$R/$s.json" --format md -o "$R/$s.md"
  done
  ;;
esac
tar czf "$OUT/$phase.tgz" -C "$OUT" "$phase" && rm -rf "$R"
