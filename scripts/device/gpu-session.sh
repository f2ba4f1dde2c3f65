#!/usr/bin/env bash
# One GPU-machine session of spbench (tool `device`), run from the repo root with .carry (Node) and
# dist (compiled CLI + bundle) carried. Phases (several may be given, run in order):
#   check   build, doctor, GPU tests, sanitizers, the acceptance commands (= tests then acceptance, which also run alone)
#   paper   the paper's SpMM figure grids (reports/suites/paper-spmm.json) and their report
#   spgemm  the SpGEMM matrix set (reports/suites/spgemm.json) and its report
#   spgemm-wide  the structure-class SpGEMM set (reports/suites/spgemm-wide.json; issue 9) and its report
#   smoke   the CI smoke suite twice (baseline, then an unchanged rerun) and compare
#   wide (= spmm-wide)  the SpMM suite beyond the paper's grid (reports/suites/spmm-wide.json; issue 10) and its report
#   plugins  the example plugins beside the built-in methods (C++ SpMM row/mixed/col, SpGEMM, an out-of-bounds and a
#            hanging plugin made from warp_row_spmm.cu, the Python plugin and the framework peers): reports/h100/plugins
# Everything lands in $OUT/<phases>.tgz plus a one-line status per step on stdout.
set -u
[ $# -ge 1 ] || { echo "usage: gpu-session.sh check|tests|acceptance|paper|spgemm|spgemm-wide|spmm-wide|wide|smoke|plugins ..." >&2; exit 2; }
phase=$(IFS=-; echo "$*")
: "${OUT:?OUT must be set}"
source scripts/device/env.sh  # Node, cache dir, CI, the commit (a short .commit is refused)
R=$OUT/$phase; mkdir -p "$R"
# `sb` as an executable (not a function) so that `timeout` can run it.
mkdir -p /tmp/sbbin; printf '#!/bin/sh\nexec node %s/bin/spbench.js "$@"\n' "$PWD" >/tmp/sbbin/sb; chmod +x /tmp/sbbin/sb; export PATH=/tmp/sbbin:$PATH
step() { # step NAME CMD... : runs, logs to $R/NAME.log (with into=FILE set: appended to $R/FILE.log under a header
         # naming the step and its command), prints one status line
  local name=$1; shift
  # STEPS (a regex): only the steps it names run, the build always (a session split over calls by its time limit)
  if [ -n "${STEPS:-}" ] && [ "$name" != build ] && ! [[ $name =~ $STEPS ]]; then return 0; fi
  local t0=$SECONDS log="$R/$name.log"
  if [ -n "${into:-}" ]; then log="$R/$into.log"; printf '\n== %s (%s)\n' "$name" "$*" >>"$log"; fi
  timeout "${STEP_TIMEOUT:-540}" "$@" >>"$log" 2>&1; local rc=$?
  printf '%-28s rc=%-3s %4ss\n' "$name" "$rc" "$((SECONDS - t0))" | tee -a "$R/steps.txt"
}
{ echo "commit: $(cat .commit 2>/dev/null || echo unknown)"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nvcc --version | tail -2; } >"$R/machine.txt" 2>&1
# BUILD_TARGETS (e.g. spmm-cuda,cpu): only those (a call short of device time skips the SpGEMM driver)
step build sb build ${BUILD_TARGETS:+--target $BUILD_TARGETS}
# Racecheck runs on our kernels (and the paper's and the TF peer we wrote); cuSPARSE's own kernels are
# checked once separately, since racecheck reports hazards inside cusparse::load_balancing_kernel.
SPMM_OURS=swa-coo,swa-csr,swa-coo-shared,swa-csr-shared,batched-coo,batched-csr,batched-csr-vec,batched-csr-vec-persist,batched-csr-flat,batched-ell,batched-col,batched-split,batched-staged,batched-tile,batched-slab,batched-mma,auto,tf-sparse-dense
SPGEMM_OURS=hash,hash-opt
tests_phase() {
  # The framework peers are checked by the plugins phase; here their Python start-up per case would
  # only slow the GPU tests down (with it they passed the step's time limit).
  export SPBENCH_PYTHON=${SPBENCH_PYTHON:-/nonexistent/python3}
  step doctor sb doctor
  # GPU_TEST_ARGS: a part of the GPU tests (e.g. "--only spgemm") where one call cannot hold them all
  # SKIP_GPU_TEST=1: the sanitizer steps alone, where the GPU tests of the same build already ran in an earlier call
  # (STEPS, a regex of step names, picks any subset)
  [ -n "${SKIP_GPU_TEST:-}" ] || step gpu-test node scripts/gpu-test.mjs --log "$R/gpu-test-detail.log" ${GPU_TEST_ARGS:-}
  sb gen --batch 7 --dim 1:70 --nnz-row 0:5 --seed 3 -o /tmp/odd.spb >/dev/null 2>&1 || sb gen --batch 7 --dim 1:70 --nnz-row 1:5 --seed 3 -o /tmp/odd.spb
  sb gen stencil:dims=2,n=30,points=9 -o /tmp/st.spb >/dev/null
  # long rows of both kinds: two full rows (> 4096 nonzeros) and, with the product threshold lowered, their neighbours
  sb gen longrow:n=6000,bw=1,long_rows=2,long_cols=1 -o /tmp/lr.spb >/dev/null
  sb gen fem:dims=3,n=6,block=3 -o /tmp/fem.spb >/dev/null  # 3x3 blocks: the merged puts
  sb gen --batch 9 --dim 40:150 --nnz-row 1:40 --seed 5 -o /tmp/dense.spb >/dev/null  # long rows: batched-mma's groups split over warps; k > 128: batched-tile's panels
  sb gen --batch 40 --dim 64 --nnz-row 16 --seed 7 -o /tmp/d64.spb >/dev/null  # k = 64: batched-tile's 16-bit 64-row chunks
  sb gen --batch 40 --dim 40:150 --nnz-row 2:6 --seed 13 -o /tmp/mixc.spb >/dev/null  # short mixed rows: batched-col's staged B (mixed)
  sb gen --batch 30 --dim 48 --nnz-row 3 --seed 5 -o /tmp/u48.spb >/dev/null  # even rows of 3: batched-col's two rows a lane (16-bit), B staged
  sb gen --batch 20 --dim 21 --nnz-row 2 --seed 6 -o /tmp/u21.spb >/dev/null  # odd m and k, uniform: batched-col's streamed path, one row a lane, chunks off 16 bytes
  sb gen --batch 6 --dim 99 --nnz-row 3 --seed 8 -o /tmp/u99.spb >/dev/null  # odd m 99: batched-col's streamed path, two strips a warp, two items a matrix, the last strip part-filled
  sb gen --batch 9 --dim 100 --nnz-row 4 --seed 9 -o /tmp/u100.spb >/dev/null  # even m 100: two rows a lane in two strips a warp
  sb gen --batch 12 --dim 72:128 --nnz-row 4:24 --seed 17 -o /tmp/f64w.spb >/dev/null  # f64 m > 64, k <= 128, mixed: batched-tile's DMMA jobs, slab's m16n8k8; 16-bit: slab's 12 warps
  sb gen --batch 12 --dim 100:128 --nnz-row 8:32 --seed 29 -o /tmp/f64t.spb >/dev/null  # f64 m of 100-128, k <= 128: batched-tile's 64-row jobs at 8 warps
  sb gen --batch 3 --dim 150:260 --nnz-row 60:110 --seed 19 -o /tmp/long.spb >/dev/null  # 3 matrices, rows of 60-110: batched-split's 32 lanes a row
  sb gen --batch 5 --dim 150:400 --nnz-row 40:150 --seed 23 -o /tmp/wide.spb >/dev/null  # A_i too wide for one block: batched-slab's slices of rows
  sb gen --batch 3 --dim 850 --nnz-row 100 --seed 37 -o /tmp/p7.spb >/dev/null  # 7 panels: batched-tile's planned k split in 3 (2, 2, 3 panels)
  spmm=$(ls /tmp/spbench-cache/bin/spbench-spmm-cuda-* | head -1); spgemm=$(ls /tmp/spbench-cache/bin/spbench-spgemm-cuda-* | head -1)
  into=sanitizers step san-spmm-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/odd.spb --nb 17,33 --precision f32 --methods all --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spgemm-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spgemm" spgemm --a /tmp/st.spb --precision f64 --methods all --warmup 0 --samples 1
  into=sanitizers step san-spmm-racecheck compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/odd.spb --nb 17,33 --precision f32 --methods $SPMM_OURS --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-col-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/odd.spb --nb 17,64 --precision f64 --layout col --methods all --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-col-racecheck compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/odd.spb --nb 17,64 --precision f32 --layout col --methods $SPMM_OURS --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-colmix-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/mixc.spb --nb 17,64 --precision f64 --layout col --methods batched-col,auto --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-colmix-racecheck compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/mixc.spb --nb 17,64 --precision f32 --layout col --methods batched-col,auto --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-f16-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/odd.spb --nb 17,64 --precision f16 --methods all --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-bf16-racecheck compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/odd.spb --nb 17,64 --precision bf16 --methods $SPMM_OURS --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-mma-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/dense.spb --nb 1,17,70 --precision f16 --layout col --methods batched-mma,batched-tile,auto --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-mma-racecheck compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/dense.spb --nb 17,64 --precision bf16 --methods batched-mma,batched-tile,auto --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-tile64-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/d64.spb --nb 17,64 --precision f16 --methods batched-tile,auto --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-tile64-racecheck compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/d64.spb --nb 17,64 --precision bf16 --layout col --methods batched-tile,auto --mode kernel --warmup 0 --samples 1
  # batched-staged's lane groups on long column-major rows (mean >= 12) and its slices of rows (batch 9)
  into=sanitizers step san-spmm-staged-col-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/dense.spb --nb 17,64 --precision f64 --layout col --methods batched-staged --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-staged-col-racecheck compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/dense.spb --nb 17,64 --precision f32 --layout col --methods batched-staged --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-f64-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/f64w.spb --nb 17,200 --precision f64 --methods batched-tile,batched-slab,auto --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-f64-racecheck compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/f64w.spb --nb 17,200 --precision f64 --methods batched-tile,batched-slab,auto --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-slab-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/dense.spb --nb 17,70,130 --precision f16 --methods batched-slab --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-slab-col-racecheck compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/dense.spb --nb 17,70 --precision bf16 --layout col --methods batched-slab --mode kernel --warmup 0 --samples 1
  # batched-split's 32 lanes a row (rows of >= 64, few matrices), both layouts
  into=sanitizers step san-spmm-split32-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/long.spb --nb 5,8 --precision f32 --layout col --methods batched-split,auto --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-split32-racecheck compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/long.spb --nb 3,8 --precision bf16 --methods batched-split,auto --mode kernel --warmup 0 --samples 1
  # batched-split's B loads of 2-8 values where nb is not a multiple of 16 bytes (vec_width_for), row-major
  into=sanitizers step san-spmm-split-vw-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/long.spb --nb 4,6,10,12,14 --precision f16 --methods batched-split --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-split-vw-f32-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/long.spb --nb 2,6,10 --precision f32 --methods batched-split --mode kernel --warmup 0 --samples 1
  # batched-staged's skewed record walk on uniform rows of 16 (d64): row- and column-major lane groups
  into=sanitizers step san-spmm-staged-skew-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/d64.spb --nb 5,16,40 --precision f32 --methods batched-staged --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-staged-skew-racecheck compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/d64.spb --nb 5,16,40 --precision f16 --layout col --methods batched-staged --mode kernel --warmup 0 --samples 1
  # batched-tile's streamed column-major path (tile_col_kernel): k 64 (2 chunks), and 120 x 120 A_i (4 chunks, the last
  # 32-row group half full) split into 3 parts a matrix, nb off 16 columns
  sb gen --batch 6 --dim 120 --nnz-row 30 --seed 51 -o /tmp/tc120.spb >/dev/null
  into=sanitizers step san-spmm-tile-col-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/d64.spb --nb 1,17,130 --precision f16 --layout col --methods batched-tile --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-tile-col3-memcheck env SPB_SPMM_TILE_COL_S=3 compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/tc120.spb --nb 9,130 --precision bf16 --layout col --methods batched-tile --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-tile-col-ring-memcheck env SPB_SPMM_TILE_COL_NS=3 compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/tc120.spb --nb 9,130 --precision f16 --layout col --methods batched-tile --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-tile-col-ring-racecheck env SPB_SPMM_TILE_COL_NS=3 compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/d64.spb --nb 1,17,260 --precision bf16 --layout col --methods batched-tile --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-tile-col-racecheck env SPB_SPMM_TILE_COL_S=3 compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/tc120.spb --nb 9,130 --precision f16 --layout col --methods batched-tile --mode kernel --warmup 0 --samples 1
  # batched-slab's streamed row-major path (slab_stream_kernel, k <= 32): odd dims 1-32 (1-row, empty rows; a warp a
  # block), dims 16-32 in 3 parts a matrix, d32 at 1, 2 and 4 warps a block (nb 36, 260, 520), nb off a column group
  sb gen --batch 7 --dim 1:32 --nnz-row 1:5 --seed 3 -o /tmp/odd32.spb >/dev/null
  sb gen --batch 9 --dim 16:32 --nnz-row 3:12 --seed 53 -o /tmp/ss32.spb >/dev/null
  sb gen --batch 40 --dim 32 --nnz-row 8 --seed 7 -o /tmp/d32.spb >/dev/null
  into=sanitizers step san-spmm-slab-stream-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/odd32.spb --nb 4,36,132 --precision f16 --methods batched-slab --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-slab-stream3-memcheck env SPB_SPMM_SLAB_STREAM_S=3 compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/ss32.spb --nb 4,132,260 --precision bf16 --methods batched-slab --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-slab-stream-racecheck env SPB_SPMM_SLAB_STREAM_S=3 compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/ss32.spb --nb 4,132,260 --precision f16 --methods batched-slab --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-slab-stream-d32-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/d32.spb --nb 36,260,520 --precision f16 --methods batched-slab --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-slab-stream-d32-racecheck compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/d32.spb --nb 36,260,520 --precision bf16 --methods batched-slab --mode kernel --warmup 0 --samples 1
  # batched-csr-flat's and batched-ell's B loads of 4 or 8 bytes where nb is not a multiple of 16 bytes (vec_plan's mid
  # widths): odd dims with empty rows and rows of 0-5 (ELL), mixed rows of 1-40 (csr-flat)
  into=sanitizers step san-spmm-vecmid-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/odd.spb --nb 2,4,6,12,14 --precision f16 --methods batched-csr-flat,batched-ell --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-vecmid-f32-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/dense.spb --nb 2,6,10 --precision f32 --methods batched-csr-flat,batched-ell --mode kernel --warmup 0 --samples 1
  # batched-slab's slices of rows: as planned (wide A_i) and forced to 32 rows (short last slices of d40-d150)
  into=sanitizers step san-spmm-slices-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/wide.spb --nb 9,40,130 --precision f32 --layout col --methods batched-slab,auto --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-slices-racecheck compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/wide.spb --nb 17,70 --precision f16 --methods batched-slab,auto --mode kernel --warmup 0 --samples 1
  # f32 batched-slab with k >= 96: 3xTF32's small terms in an accumulator of their own (FK 1)
  into=sanitizers step san-spmm-slab-sacc-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/dense.spb --nb 17,70,130 --precision f32 --methods batched-slab --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-slab-sacc-racecheck compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/dense.spb --nb 17,70 --precision f32 --layout col --methods batched-slab --mode kernel --warmup 0 --samples 1
  # f32 batched-slab with two 16-row strips a warp's pair (as planned: dims 90-128, small terms apart, a padding strip; dim 64)
  sb gen --batch 12 --dim 90:128 --nnz-row 20:60 --seed 29 -o /tmp/ms2.spb >/dev/null
  into=sanitizers step san-spmm-slab-ms2-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/ms2.spb --nb 70,130 --precision f32 --methods batched-slab --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-slab-ms2-racecheck compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/ms2.spb --nb 130 --precision f32 --layout col --methods batched-slab --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-slab-ms2-d64-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/d64.spb --nb 128,200 --precision f32 --layout col --methods batched-slab --mode kernel --warmup 0 --samples 1
  # 16-bit row-major batched-slab, 12 warps a block: planned (f64w's m up to 128 at nb 130 / 192), and forced onto odd's small A_i (more warps than pairs)
  into=sanitizers step san-spmm-slab12-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/f64w.spb --nb 17,130,192 --precision f16 --methods batched-slab,auto --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-slab12-racecheck compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/f64w.spb --nb 130 --precision bf16 --methods batched-slab --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-slab12-odd-memcheck env SPB_SPMM_SLAB_WARPS=12 compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/odd.spb --nb 1,17,130 --precision bf16 --methods batched-slab --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-slab12-odd-racecheck env SPB_SPMM_SLAB_WARPS=12 compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/odd.spb --nb 17,70 --precision f16 --methods batched-slab --mode kernel --warmup 0 --samples 1
  # batched-tile's multi-panel fill (A_i of up to 400 columns: 2-4 panels of places and values in groups of 8, padded)
  into=sanitizers step san-spmm-tile-mp-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/wide.spb --nb 1,17,70 --precision f32 --layout col --methods batched-tile --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-tile-mp-f16-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/wide.spb --nb 17,70 --precision f16 --methods batched-tile --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-tile-mp-racecheck compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/wide.spb --nb 17,70 --precision f64 --methods batched-tile --mode kernel --warmup 0 --samples 1
  # ... and planned splits that do not divide the panels (p7: 7 panels, split in 3: 2, 2 and 3 panels a block)
  into=sanitizers step san-spmm-tile-split-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/p7.spb --nb 8,40 --precision f32 --methods batched-tile --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-tile-split-col-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/p7.spb --nb 8,40 --precision bf16 --layout col --methods batched-tile --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-tile-split-racecheck compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/p7.spb --nb 8 --precision f64 --methods batched-tile --mode kernel --warmup 0 --samples 1
  # batched-tile's two strips a warp (tile_strips_for): planned (tms2: 70 row-major A_i of 100-300 rows, nB 72 / 136;
  # tms2c: 150 column-major of d120, nB 96 / 200), and forced onto wide's 5 A_i of 150-400 rows (racecheck)
  sb gen --batch 70 --dim 100:300 --nnz-row 10:60 --seed 43 -o /tmp/tms2.spb >/dev/null
  into=sanitizers step san-spmm-tile-ms2-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/tms2.spb --nb 72,136 --precision f16 --methods batched-tile --mode kernel --warmup 0 --samples 1
  sb gen --batch 150 --dim 120 --nnz-row 10:60 --seed 44 -o /tmp/tms2c.spb >/dev/null
  into=sanitizers step san-spmm-tile-ms2-col-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/tms2c.spb --nb 96,200 --precision bf16 --layout col --methods batched-tile --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-tile-ms2-racecheck env SPB_SPMM_TILE_MS=2 compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/wide.spb --nb 72 --precision bf16 --methods batched-tile --mode kernel --warmup 0 --samples 1
  # ... with A_i of k 129-192 held whole (tile_wide; tw5: 20 row-major A_i of 136-192 rows and columns, empty rows; tw6: 20
  # column-major of d176; two strips forced, as these batches are below the grid the plan wants for them)
  sb gen --batch 20 --dim 136:192 --nnz-row 0:90 --seed 45 -o /tmp/tw5.spb >/dev/null 2>&1 || sb gen --batch 20 --dim 136:192 --nnz-row 1:90 --seed 45 -o /tmp/tw5.spb >/dev/null
  sb gen --batch 20 --dim 176 --nnz-row 1:90 --seed 46 -o /tmp/tw6.spb >/dev/null
  for t in memcheck racecheck; do
    into=sanitizers step san-spmm-tile-wide-$t env SPB_SPMM_TILE_MS=2 compute-sanitizer --tool $t --error-exitcode 9 "$spmm" spmm --input /tmp/tw5.spb --nb 64,136 --precision bf16 --methods batched-tile --mode kernel --warmup 0 --samples 1
    into=sanitizers step san-spmm-tile-wide-col-$t env SPB_SPMM_TILE_MS=2 compute-sanitizer --tool $t --error-exitcode 9 "$spmm" spmm --input /tmp/tw6.spb --nb 64,136 --precision bf16 --layout col --methods batched-tile --mode kernel --warmup 0 --samples 1
  done
  # ... row-major in 64-row chunks (tile_kc) with one panel (tms2o: 200 A_i of 96-128 rows and columns, k not all multiples of 64)
  sb gen --batch 200 --dim 96:128 --nnz-row 10:40 --seed 45 -o /tmp/tms2o.spb >/dev/null
  into=sanitizers step san-spmm-tile-kc64-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/tms2o.spb --nb 104,200 --precision f16 --methods batched-tile --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-tile-kc64-racecheck compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/tms2o.spb --nb 104 --precision bf16 --methods batched-tile --mode kernel --warmup 0 --samples 1
  # ... and column-major multi-panel (tms2w: 60 A_i of d240, k > 160)
  sb gen --batch 60 --dim 240 --nnz-row 20:100 --seed 46 -o /tmp/tms2w.spb >/dev/null
  into=sanitizers step san-spmm-tile-kc64-col-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/tms2w.spb --nb 72,136 --precision bf16 --layout col --methods batched-tile --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-tile-kc64-col-racecheck compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/tms2w.spb --nb 72 --precision f16 --layout col --methods batched-tile --mode kernel --warmup 0 --samples 1
  # 16-bit B / C off 16-byte alignment: batched-tile's and batched-slab's MIS kernels (mis: m_i, k_i of 33-101, odd ones among them; row-major nB 17 / 36 / 70: slab's B and C runs, 131: its word copies, 132: its 16-byte vectors)
  sb gen --batch 6 --dim 33:101 --nnz-row 1:30 --seed 41 -o /tmp/mis.spb >/dev/null
  into=sanitizers step san-spmm-mis-col-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/mis.spb --nb 17,70 --precision f16 --layout col --methods batched-tile,batched-slab --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-mis-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/mis.spb --nb 17,36,70,131,132 --precision bf16 --methods batched-tile,batched-slab --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-mis-col-racecheck compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/mis.spb --nb 70 --precision f16 --layout col --methods batched-tile,batched-slab --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-mis-racecheck compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/mis.spb --nb 17,36,131 --precision bf16 --methods batched-tile,batched-slab --mode kernel --warmup 0 --samples 1
  # batched-slab's row-major runs with slices of rows (wide: A_i of 100-400 columns)
  into=sanitizers step san-spmm-slab-runs-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/wide.spb --nb 9,100 --precision f16 --methods batched-slab --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-slab-runs-racecheck compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/wide.spb --nb 100 --precision bf16 --methods batched-slab --mode kernel --warmup 0 --samples 1
  # batched-slab's 16-bit positions at their edge: 64-row slices of 16-bit A_i of 1000 columns (places up to 65023)
  sb gen --batch 6 --dim 1000 --nnz-row 3 --seed 31 -o /tmp/k1000.spb >/dev/null
  into=sanitizers step san-spmm-slab-apos16-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/k1000.spb --nb 9,40 --precision f16 --methods batched-slab --mode kernel --warmup 0 --samples 1
  # f64 batched-tile, 8 warps a block: planned (f64t's m of 100-128: 64-row jobs), and forced onto odd's small A_i (16- and 32-row jobs)
  into=sanitizers step san-spmm-tile8-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/f64t.spb --nb 17,70,256 --precision f64 --methods batched-tile,auto --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-tile8-racecheck compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/f64t.spb --nb 70 --precision f64 --layout col --methods batched-tile --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-tile8-odd-memcheck env SPB_SPMM_TILE_WARPS=8 compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/odd.spb --nb 1,17,130 --precision f64 --layout col --methods batched-tile --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-tile8-odd-racecheck env SPB_SPMM_TILE_WARPS=8 compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/odd.spb --nb 17,70 --precision f64 --methods batched-tile --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-slices32-memcheck env SPB_SPMM_SLAB_ROWS=32 compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/dense.spb --nb 17,70 --precision f64 --methods batched-slab --mode kernel --warmup 0 --samples 1
  # batched-tile's split k forced to 3 on A_i wider than a panel: the partial sums and the last block's adds
  into=sanitizers step san-spmm-tilesplit-memcheck env SPB_SPMM_TILE_SPLIT=3 compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/wide.spb --nb 9,70 --precision f32 --layout col --methods batched-tile --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-tilesplit-racecheck env SPB_SPMM_TILE_SPLIT=3 compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/wide.spb --nb 17,70 --precision f16 --methods batched-tile --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-tile64-row-racecheck compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/d64.spb --nb 24,64 --precision f16 --methods batched-tile --mode kernel --warmup 0 --samples 1
  # synccheck: every thread of a warp meets each barrier at the same __syncthreads (bar.sync is .aligned; a warp
  # split between two hung batched-col's two-buffer branch on the H100, 2026-11-27; check:emu stops on it too)
  into=sanitizers step san-spmm-synccheck compute-sanitizer --tool synccheck --error-exitcode 9 "$spmm" spmm --input /tmp/odd.spb --nb 17,70 --precision f32 --methods $SPMM_OURS --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-col-synccheck compute-sanitizer --tool synccheck --error-exitcode 9 "$spmm" spmm --input /tmp/mixc.spb --nb 17,256 --precision f32 --layout col --methods $SPMM_OURS --mode kernel --warmup 0 --samples 1
  # batched-col's two buffers (4- and 8-byte values, blocks of two or more column chunks: grid.y at most 2), mixed and uniform
  into=sanitizers step san-spmm-coldb-memcheck env SPB_SPMM_COL=4,2 compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/mixc.spb --nb 1,70,512 --precision f64 --layout col --methods batched-col --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-coldb-racecheck env SPB_SPMM_COL=4,2 compute-sanitizer --tool racecheck --error-exitcode 9 "$spmm" spmm --input /tmp/d64.spb --nb 1,70,512 --precision f32 --layout col --methods batched-col --mode kernel --warmup 0 --samples 1
  for t in memcheck racecheck; do
    into=sanitizers step san-spmm-col2-$t compute-sanitizer --tool $t --error-exitcode 9 "$spmm" spmm --input /tmp/u48.spb --nb 5,130 --precision bf16 --layout col --methods batched-col --mode kernel --warmup 0 --samples 1
  done
  # batched-col's streamed path (forced on these small batches): two rows a lane (u48), one with chunk starts off 16 bytes and
  # B's last 16-byte block partial (u21)
  for t in memcheck racecheck; do
    into=sanitizers step san-spmm-colstream-$t env SPB_SPMM_COL_STREAM=1 compute-sanitizer --tool $t --error-exitcode 9 "$spmm" spmm --input /tmp/u48.spb --nb 5,130 --precision bf16 --layout col --methods batched-col --mode kernel --warmup 0 --samples 1
    into=sanitizers step san-spmm-colstream-odd-$t env SPB_SPMM_COL_STREAM=1 compute-sanitizer --tool $t --error-exitcode 9 "$spmm" spmm --input /tmp/u21.spb --nb 3,131 --precision f16 --layout col --methods batched-col --mode kernel --warmup 0 --samples 1
  done
  for t in memcheck racecheck; do
    into=sanitizers step san-spmm-colstream-ss-$t env SPB_SPMM_COL_STREAM=1 compute-sanitizer --tool $t --error-exitcode 9 "$spmm" spmm --input /tmp/u99.spb --nb 3,131 --precision f16 --layout col --methods batched-col --mode kernel --warmup 0 --samples 1
  done
  into=sanitizers step san-spmm-colstream-ss2-memcheck env SPB_SPMM_COL_STREAM=1 compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/u100.spb --nb 5,130 --precision f32 --layout col --methods batched-col --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-colstream-odd-f32-memcheck env SPB_SPMM_COL_STREAM=1 compute-sanitizer --tool memcheck --error-exitcode 9 "$spmm" spmm --input /tmp/u21.spb --nb 3,131 --precision f32 --layout col --methods batched-col --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spmm-coldb-synccheck env SPB_SPMM_COL=4,2 compute-sanitizer --tool synccheck --error-exitcode 9 "$spmm" spmm --input /tmp/mixc.spb --nb 70,512 --precision f32 --layout col --methods batched-col --mode kernel --warmup 0 --samples 1
  into=sanitizers step san-spgemm-racecheck compute-sanitizer --tool racecheck --error-exitcode 9 "$spgemm" spgemm --a /tmp/st.spb --precision f32 --methods $SPGEMM_OURS --warmup 0 --samples 1
  into=sanitizers step san-spgemm-long-memcheck env SPB_SPGEMM_LONG_PROD=1000 compute-sanitizer --tool memcheck --error-exitcode 9 "$spgemm" spgemm --a /tmp/lr.spb --precision f64 --methods hash-opt --warmup 0 --samples 1
  into=sanitizers step san-spgemm-long-racecheck env SPB_SPGEMM_LONG_PROD=1000 compute-sanitizer --tool racecheck --error-exitcode 9 "$spgemm" spgemm --a /tmp/lr.spb --precision f32 --methods hash-opt --warmup 0 --samples 1
  into=sanitizers step san-spgemm-fem-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spgemm" spgemm --a /tmp/fem.spb --precision f64 --methods hash-opt --warmup 0 --samples 1
  into=sanitizers step san-spgemm-fem-racecheck compute-sanitizer --tool racecheck --error-exitcode 9 "$spgemm" spgemm --a /tmp/fem.spb --precision f32 --methods hash-opt --warmup 0 --samples 1
  # symbolic estimates divided by 64: estimated tables fill and k_tb_sym counts those rows in column bitmaps
  sb gen rmat:scale=12,ef=8 -o /tmp/rmat12.spb >/dev/null
  into=sanitizers step san-spgemm-estimate-memcheck env SPB_SPGEMM_EST_DIV=64 compute-sanitizer --tool memcheck --error-exitcode 9 "$spgemm" spgemm --a /tmp/rmat12.spb --precision f64 --methods hash-opt --warmup 0 --samples 1
  into=sanitizers step san-spgemm-estimate-racecheck env SPB_SPGEMM_EST_DIV=64 compute-sanitizer --tool racecheck --error-exitcode 9 "$spgemm" spgemm --a /tmp/rmat12.spb --precision f32 --methods hash-opt --warmup 0 --samples 1
  into=sanitizers step san-spgemm-rows-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "$spgemm" spgemm --a /tmp/st.spb --precision f32 --methods hash-opt,cusparse-alg1 --reference rows:50 --warmup 0 --samples 1
  into=sanitizers step san-cusparse-racecheck compute-sanitizer --tool racecheck "$spgemm" spgemm --a /tmp/st.spb --precision f32 --methods cusparse-reuse --warmup 0 --samples 1
}
acceptance_phase() {
  into=acceptance step spmm-readme sb spmm --batch 100 --dim 64 --json "$R/spmm-readme.json"
  into=acceptance step spmm-targets sb spmm --batch 100 --dim 64,256 --nnz-row 3 --nb 64 --mode graph --json "$R/spmm-targets.json"
  into=acceptance step spmm-huge sb spmm --batch 10000 --dim 64 --nnz-row 3 --nb 64 --mode graph --json "$R/spmm-huge.json"
  into=acceptance step spgemm-rmat sb spgemm --gen rmat:scale=16,ef=8 --breakdown --explain --json "$R/spgemm-rmat16.json"
  # issue 12: a circuit-like matrix of 972 M products, twice a precision (the second run reads the cached reference);
  # the step's seconds in steps.txt are the wall times
  sb gen circuit:rows=1000000,nnz_row=3,hubs=60,hub_size=4000 -o /tmp/circuit.mtx >/dev/null
  for pr in f32 f64; do for k in 1 2; do into=acceptance step spgemm-circuit-$pr-$k sb spgemm /tmp/circuit.mtx --precision $pr --json "$R/spgemm-circuit-$pr-$k.json"; done; done
}
for p in "$@"; do
case $p in
check) tests_phase; acceptance_phase ;;
tests) tests_phase ;;
acceptance) acceptance_phase ;;
plugins)
  K="--kernel examples/plugins/warp_row_spmm.cu --kernel examples/plugins/smem_row_spmm.cu"
  step plugins-spmm sb spmm $K --nb 16,64,256 --mode kernel,e2e,graph --json "$R/spmm.json"
  step plugins-spmm-mixed sb spmm --dim 32:256 $K --nb 16,64 --mode kernel,graph --json "$R/spmm-mixed.json"
  step plugins-spmm-col sb spmm --layout col $K --nb 16,64 --mode kernel --json "$R/spmm-col.json"
  step plugins-spgemm sb spgemm --gen stencil:dims=3,n=40,points=27 --gen rmat:scale=16,ef=8 --precision f32,f64 --kernel examples/plugins/esc_spgemm.cu --json "$R/spgemm.json"
  # a planted out-of-bounds write and an endless loop: each must end as that plugin's error, the others keep their figures
  sed 's/Ci\[spbench::dense_index(layout, r, j, ldc)\] = acc;/Ci[spbench::dense_index(layout, r, j, ldc) + 100000000] = acc;/; s/"warp-row"/"warp-row-oob"/' examples/plugins/warp_row_spmm.cu >/tmp/oob_spmm.cu
  sed 's/T acc = 0;/T acc = 0; while (clock64() >= 0) {}/; s/"warp-row"/"warp-row-hang"/' examples/plugins/warp_row_spmm.cu >/tmp/hang_spmm.cu
  step plugins-oob sb spmm --kernel /tmp/oob_spmm.cu --nb 16 --mode kernel --json "$R/oob.json"
  step plugins-hang env SPBENCH_KERNEL_TIMEOUT=20 sb spmm --kernel /tmp/hang_spmm.cu --nb 16 --mode kernel --json "$R/hang.json"
  step plugins-python env -u SPBENCH_PYTHON sb spmm --backend cuda --batch 100 --dim 64 --nnz-row 3 --nb 64 --mode kernel,e2e,graph --methods torch-sparse-loop,torch-sparse-bmm,torch-blockdiag --kernel examples/plugins/gather_spmm.py --warmup 3 --json "$R/python.json"
  ;;
smoke)
  step smoke-base sb run reports/suites/ci-smoke.json --backend cuda --json "$R/ci-smoke.json"
  step smoke-new sb run reports/suites/ci-smoke.json --backend cuda --json "$R/ci-smoke-new.json"
  step smoke-compare sb compare "$R/ci-smoke.json" "$R/ci-smoke-new.json" --strict-env --markdown "$R/ci-smoke-compare.md"
  ;;
paper|spgemm|spgemm-wide|spmm-wide|wide)
  suite=$p; [ "$p" = paper ] && suite=paper-spmm; [ "$p" = wide ] && suite=spmm-wide
  [ -f "reports/suites/$suite.json" ] || { echo "no suite reports/suites/$suite.json" | tee -a "$R/steps.txt"; continue; }
  step "suite-$suite" sb run "reports/suites/$suite.json" --backend cuda --json "$R/$suite.json"
  for f in md html; do [ -f "$R/$suite.json" ] && step "report-$suite-$f" sb report "$R/$suite.json" --format $f -o "$R/$suite.$f"; done
  ;;
*) echo "unknown phase $p" >&2 ;;
esac
done
tar czf "$OUT/$phase.tgz" -C "$OUT" "$phase" && rm -rf "$R"
