#!/bin/bash
# GPU machine, repository root, OUT set, .carry and .dev carried: development runs of drivers built here by
# dev/spmm/bin_build.sh (no device build). Phases:
#   ab      every cell of $CELLS (default dev/spmm/bin_cells.json) on every variant of $VARIANTS, a JSON list of
#           [binary name, {env}] (e.g. '[["base",{}],["new",{"SPB_SPMM_TILE":"2"}]]'), $M (default batched-tile),
#           graph mode, median of 10 samples ("!" after a figure: not verified; TIMEOUT: a run past $AB_TIMEOUT s, default 90)
#   verify  $EXE (a binary name) on odd, dense-ish, wide (k up to 400), uniform d64 and short-row mixed batches, nB 1-256, $PRECS x $LAYOUTS
#   prof    ncu --set full, source counters with SASS, for $NCU ("batch:dim:nnzrow:nb:precision:layout:method:kernel-regex ...") on $EXE
set -u
: "${OUT:?}"
source .carry/node-env.sh; export CI=1
for f in .dev/bin/*.xz; do b=.dev/bin/$(basename "$f" .xz); [ -x "$b" ] || { xz -dc "$f" >"$b"; chmod +x "$b"; }; done
R=$OUT/r; mkdir -p "$R"
gen() { node bin/spbench.js gen "$@" >/dev/null; }
for p in "$@"; do case $p in
ab) python3 dev/spmm/bin_ab.py "${CELLS:-dev/spmm/bin_cells.json}" "$R/ab.txt"; cat "$R/ab.txt" ;;
verify)
  gen --batch 7 --dim 1:70 --nnz-row 0:5 --seed 3 -o /tmp/odd.spb 2>/dev/null || gen --batch 7 --dim 1:70 --nnz-row 1:5 --seed 3 -o /tmp/odd.spb
  gen --batch 9 --dim 40:150 --nnz-row 1:40 --seed 5 -o /tmp/dense.spb
  gen --batch 5 --dim 100:400 --nnz-row 1:90 --seed 9 -o /tmp/wide.spb
  gen --batch 300 --dim 64 --nnz-row 16 --seed 11 -o /tmp/uni.spb
  gen --batch 40 --dim 8:150 --nnz-row 2:6 --seed 13 -o /tmp/mixc.spb  # short mixed rows: batched-col's staged B (mixed)
  : >"$R/verify.log"
  for f in odd dense wide uni mixc; do for l in ${LAYOUTS:-row col}; do for pr in ${PRECS:-f32 f64 f16 bf16}; do
    ".dev/bin/${EXE:?}" spmm --input /tmp/$f.spb --nb 1,3,8,17,33,64,70,130,256 --precision $pr --layout $l --methods "${M:-batched-tile}" --mode kernel --warmup 0 --samples 1 >>"$R/verify.log" 2>&1
  done; done; done
  echo "verify: failed $(grep '"status":"ok"' "$R/verify.log" | grep -c '"passed":false') ok $(grep -c '"status":"ok"' "$R/verify.log") errors $(grep -c '"status":"error"' "$R/verify.log")" ;;
prof)
  for c in ${NCU:?}; do IFS=: read -r b d z n pr l m k <<<"$c"; tag=$(echo "$c" | tr -c 'A-Za-z0-9.\n-' '_')  # file names: no ':' or a regex's '|'
    gen --batch "$b" --dim "$d" --nnz-row "$z" --seed 21 -o /tmp/p.spb
    timeout 200 ncu --set full --import-source yes -f -o "/tmp/rep-$tag" -k "regex:$k" -c 1 ".dev/bin/${EXE:?}" spmm --input /tmp/p.spb --nb "$n" --precision "$pr" --layout "$l" --methods "$m" --mode kernel --warmup 0 --samples 1 >"$R/run-$tag.log" 2>&1
    timeout 100 ncu -i "/tmp/rep-$tag.ncu-rep" --page source --csv --print-source sass >"$R/src-$tag.csv" 2>/dev/null  # dev/spmm/sass_counts.py reads it
    timeout 100 ncu -i "/tmp/rep-$tag.ncu-rep" --page details >"$R/det-$tag.txt" 2>&1
  done ;;
esac; done
