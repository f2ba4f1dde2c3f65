#!/usr/bin/env bash
# Runs CUDA kernels on the CPU through host emulations of the runtime and intrinsics, against float64 references:
# the hash SpGEMM's host code and kernels (cuda/check/emu_spgemm: the default configuration, and hash-opt with its
# long-row path forced onto small rows) and the SpMM column-major and staged kernels (cuda/check/emu); and the SpMM
# planner on the host (cuda/check/plan_check.cu, built by nvcc, run without a GPU): every uniform case of the
# committed H100 baselines must get the choice `auto` recorded there (and batched-slab its strips a warp), so a
# planner change that moves one fails until the baseline is rerun or the move is listed, with its evidence, in
# cuda/check/plan_moves.txt; likewise the cells measured outside the suites in
# cuda/check/plan_cells_measured.txt. No GPU needed; the GPU tests and
# compute-sanitizer stay the real check.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
python3 cuda/check/emu_spgemm/emu_prepare.py . "$out"
g++ -std=c++20 -O1 -pthread -I"$out" -I"$out/cuda/common" -w cuda/check/emu_spgemm/spgemm_emu.cpp -o "$out/spgemm_emu"
"$out/spgemm_emu" | grep -v ' ok$'
"$out/spgemm_emu" --long 64 | grep -v ' ok$'
g++ -std=c++20 -O1 -pthread -I cuda/check/emu -w cuda/check/emu/spmm_emu.cpp -o "$out/spmm_emu"
"$out/spmm_emu" | tail -1
nvcc -std=c++17 -O1 -arch=sm_90 -DSPB_PLAN_CHECK cuda/check/plan_check.cu -o "$out/plan_check"
node scripts/plan-cells.mjs --moves cuda/check/plan_moves.txt reports/baselines/h100/spmm-wide.json reports/baselines/h100/paper-spmm.json | "$out/plan_check"
"$out/plan_check" <cuda/check/plan_cells_measured.txt  # cells measured outside the suites (rule 9's 16-bit clause, rule 2's column-major 16-bit clause)
