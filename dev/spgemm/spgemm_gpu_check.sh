#!/usr/bin/env bash
# GPU-machine check of spbench-spgemm-cuda: build, generate matrices, correctness on the odd cases (f32/f64),
# compute-sanitizer memcheck + racecheck on small cases, timing sweep f32/f64 against cuSPARSE.
# Usage (repo root): dev/spgemm/spgemm_gpu_check.sh OUTDIR [quick]
set -u
OUT=${1:?outdir}; MODE=${2:-full}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > "$OUT/gpu.txt" 2>&1
nvcc -std=c++17 -O3 -arch=sm_90 -I. cuda/drivers/spgemm_cuda.cu -lcusparse -o /tmp/spgemm > "$OUT/build.log" 2>&1 || { cat "$OUT/build.log"; exit 1; }
g++ -std=c++17 -O2 -I. dev/spgemm/spgemm_gen.cpp -o /tmp/gen || exit 1
M=/tmp/m; mkdir -p $M
SMALL="one all_empty empty_rows dense_small big_row rect_a rect_b wide_a wide_b stencil3d_12 rmat10"
BIG="stencil3d_40 stencil3d_64 grid2d_1000 uniform_200k rmat16 rmat18"
for n in $SMALL $BIG; do /tmp/gen $M $n > $M/$n.log 2>&1 & done; wait; cat $M/*.log > "$OUT/matrices.txt"
run() { timeout 120 /tmp/spgemm spgemm "$@" 2>>"$OUT/stderr.log"; echo "{\"exit\":$?}"; }
echo "== correctness" >&2
for p in f32 f64; do
  for n in one all_empty empty_rows dense_small big_row stencil3d_12 rmat10; do run --a $M/$n.spb --precision $p --methods all --warmup 0 --samples 1; done
  run --a $M/rect_a.spb --b $M/rect_b.spb --precision $p --methods all --warmup 0 --samples 1
  run --a $M/wide_a.spb --b $M/wide_b.spb --precision $p --methods all --warmup 0 --samples 1
done > "$OUT/correct.jsonl"
python3 dev/spgemm/spgemm_summary.py "$OUT/correct.jsonl" > "$OUT/correct.md"; cat "$OUT/correct.md"
echo "== sanitizer" >&2
for n in empty_rows dense_small rmat10 big_row one all_empty; do
  tools=memcheck; case $n in empty_rows|dense_small|rmat10) tools="memcheck racecheck";; esac
  for tool in $tools; do
    echo "## $tool $n f64" ; timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 /tmp/spgemm spgemm --a $M/$n.spb --precision f64 --methods hash,hash-opt --warmup 0 --samples 1 --reference none 2>&1 | grep -v '^{' | tail -4; echo "rc=${PIPESTATUS[0]}"
  done
done > "$OUT/sanitizer.txt" 2>&1
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/spgemm spgemm --a $M/rect_a.spb --b $M/rect_b.spb --precision f32 --methods all --warmup 0 --samples 1 --reference none 2>&1 | grep -v '^{' | tail -3 >> "$OUT/sanitizer.txt"
grep -E '^##|rc=|ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitizer.txt"
[ "$MODE" = quick ] && exit 0
echo "== timing" >&2
for p in f32 f64; do
  for n in $BIG; do run --a $M/$n.spb --precision $p --methods all --warmup 2 --samples 10 --breakdown $([ $n = stencil3d_40 ] && echo --explain); done
done > "$OUT/timing.jsonl"
python3 dev/spgemm/spgemm_summary.py "$OUT/timing.jsonl" > "$OUT/timing.md"; cat "$OUT/timing.md"
grep '"explain"' "$OUT/timing.jsonl" | head -2
