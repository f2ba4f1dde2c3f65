#!/usr/bin/env bash
# Development only: one-call GPU A/B of a hash-opt change on the structure classes of issue 9 and the old six.
# Builds this tree (new) and BASE (an older cuda/ tree, for before figures on the same machine), checks hash and
# hash-opt on odd cases (f32/f64, CPU reference), times hash-opt new (verified) + every cuSPARSE algorithm and
# hash-opt old on each matrix, then memcheck/racecheck on small cases. Writes OUT/summary.md and logs.
# Usage (repo root): dev/spgemm/ab_classes.sh OUT BASEDIR [MATRICES...]; env AB_SAMPLES (10), AB_PREC (f32),
# AB_NEW_ENV (environment of every run of the new build, e.g. "SPB_SPGEMM_LONG=1" for the long-row path),
# AB_GROUPS (matrices whose per-group times are printed), AB_OLD_ENV (environment of the BASE build's runs),
# AB_VARIANTS ("label=VAR=value ..." : more timed runs of the new build, each with one more environment variable),
# AB_SAN (matrices run under memcheck and racecheck; "" for none).
set -u
OUT=${1:?out}; BASE=${2:?base}; shift 2
SAMPLES=${AB_SAMPLES:-10}; PRECS=${AB_PREC:-f32}
mkdir -p "$OUT"; T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$OUT/gpu.txt" 2>&1
nvcc -std=c++17 -O3 -arch=sm_90 -I. cuda/drivers/spgemm_cuda.cu -lcusparse -o /tmp/new > "$OUT/build.log" 2>&1 & b1=$!
(cd "$BASE" && nvcc -std=c++17 -O3 -arch=sm_90 -I. cuda/drivers/spgemm_cuda.cu -lcusparse -o /tmp/old) > "$OUT/build_base.log" 2>&1 & b2=$!
g++ -std=c++17 -O2 dev/spgemm/classes_gen.cpp -o /tmp/cg || exit 1
g++ -std=c++17 -O2 -I. dev/spgemm/spgemm_gen.cpp -o /tmp/og || exit 1
M=/tmp/m; mkdir -p $M
ODD_OLD="one all_empty empty_rows dense_small big_row rect_a rect_b wide_a wide_b rmat14"
ODD_NEW="one_row longrow_small direct_mix warp_mix"
MATS=${*:-"tri150k_long1 bidiag1100k_long1 perm3m empty100k_rowcol powerlaw400k irregular300k multimodal200k circuit500k fem3d_b3_24 stencil3d_40 grid2d_1000 uniform_200k rmat16 rmat18"}
for n in $ODD_OLD stencil3d_40 stencil3d_64 grid2d_1000 uniform_200k rmat16 rmat18; do /tmp/og $M $n > $M/$n.log 2>&1 & done
for n in $ODD_NEW $MATS; do [ -f $M/$n.spb ] || /tmp/cg $M $n > $M/$n.log 2>&1 & done
wait $b1 || { tail -30 "$OUT/build.log"; exit 1; }
wait; cat $M/*.log > "$OUT/matrices.txt"; echo "built+gen $(( $(date +%s) - T0 ))s"
run() { local x=$1; shift; case $x in /tmp/new) x="env ${AB_NEW_ENV:-AB=1} $x";; /tmp/old) x="env ${AB_OLD_ENV:-AB=1} $x";; esac
  timeout 150 $x spgemm "$@" 2>>"$OUT/stderr.log"; echo "{\"exit\":$?,\"args\":\"$*\"}"; }
for p in f32 f64; do
  for n in one all_empty empty_rows dense_small big_row rmat14 $ODD_NEW; do run /tmp/new --a $M/$n.spb --precision $p --methods hash,hash-opt --warmup 0 --samples 1; done
  run /tmp/new --a $M/rect_a.spb --b $M/rect_b.spb --precision $p --methods hash,hash-opt --warmup 0 --samples 1
  run /tmp/new --a $M/wide_a.spb --b $M/wide_b.spb --precision $p --methods hash,hash-opt --warmup 0 --samples 1
done > "$OUT/correct.jsonl"
echo "correct ok=$(grep -c '"status":"ok"' "$OUT/correct.jsonl") not-ok=$(grep '"result"' "$OUT/correct.jsonl" | grep -vc '"status":"ok"') $(( $(date +%s) - T0 ))s"
grep '"result"' "$OUT/correct.jsonl" | grep -v '"status":"ok"' | cut -c1-400 | head -5
for p in $PRECS; do for n in $MATS; do
  run /tmp/new --a $M/$n.spb --precision $p --methods hash-opt,cusparse-alg1,cusparse-reuse --warmup 2 --samples $SAMPLES --breakdown
  [ -x /tmp/old ] && run /tmp/old --a $M/$n.spb --precision $p --methods hash-opt --warmup 2 --samples $SAMPLES --reference none | sed 's/"method":"hash-opt"/"method":"hash-opt-old"/'
  for v in ${AB_VARIANTS:-}; do
    run "env ${v#*=} /tmp/new" --a $M/$n.spb --precision $p --methods hash-opt --warmup 2 --samples $SAMPLES --reference none | sed "s/\"method\":\"hash-opt\"/\"method\":\"hash-opt-${v%%=*}\"/"
  done
done; done > "$OUT/timing.jsonl"
echo "timing $(( $(date +%s) - T0 ))s"
for p in $PRECS; do for n in ${AB_GROUPS:-}; do echo "== $n $p"; env ${AB_NEW_ENV:-AB=1} SPB_SPGEMM_GROUPS=serial timeout 60 /tmp/new spgemm --a $M/$n.spb --precision $p --methods hash-opt --warmup 1 --samples 1 --breakdown --reference none 2>&1 >/dev/null; done; done > "$OUT/groups.txt"; cat "$OUT/groups.txt"
SAN=${AB_SAN-"longrow_small direct_mix one_row"}
for n in $SAN; do
  env ${AB_NEW_ENV:-AB=1} timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/new spgemm --a $M/$n.spb --precision f64 --methods hash-opt --warmup 0 --samples 1 > "$OUT/san-mem-$n.log" 2>&1; echo "memcheck $n rc=$?"
  env ${AB_NEW_ENV:-AB=1} timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 /tmp/new spgemm --a $M/$n.spb --precision f32 --methods hash-opt --warmup 0 --samples 1 > "$OUT/san-race-$n.log" 2>&1; echo "racecheck $n rc=$?"
done 2>&1 | tee "$OUT/san.txt"
python3 dev/spgemm/ab_summary.py "$OUT/timing.jsonl" > "$OUT/summary.md"; cat "$OUT/summary.md"
echo "total $(( $(date +%s) - T0 ))s"
