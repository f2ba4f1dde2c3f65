#!/usr/bin/env bash
# One-call GPU check of a hash-opt change: builds this tree (new) and BASE (a copy of the previous version's
# cuda/ folder, for the before figures on the same machine), correctness of hash/hash-opt on the odd cases
# (f32/f64, CPU reference), the timing set with every method (new, CPU-verified) and hash-opt alone (base),
# per-group times of hash-opt on the R-MATs (SPB_SPGEMM_GROUPS), then memcheck + racecheck on small cases.
# Usage (repo root): dev/spgemm/spgemm_ab.sh OUTDIR BASEDIR
# Env (shorter runs): AB_METHODS (timing set's methods of the new build, default all), AB_SAMPLES (default 10).
set -u
METHODS=${AB_METHODS:-all}; SAMPLES=${AB_SAMPLES:-10}
OUT=${1:?outdir}; BASE=${2:?basedir}
mkdir -p "$OUT"; T0=$(date +%s)
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv > "$OUT/gpu.txt" 2>&1
nvcc -std=c++17 -O3 -arch=sm_90 -I. cuda/drivers/spgemm_cuda.cu -lcusparse -o /tmp/new > "$OUT/build.log" 2>&1 & b1=$!
(cd "$BASE" && nvcc -std=c++17 -O3 -arch=sm_90 -I. cuda/drivers/spgemm_cuda.cu -lcusparse -o /tmp/old) > "$OUT/build_base.log" 2>&1 & b2=$!
g++ -std=c++17 -O2 -I. dev/spgemm/spgemm_gen.cpp -o /tmp/gen || exit 1
M=/tmp/m; mkdir -p $M
SMALL="one all_empty empty_rows dense_small big_row rect_a rect_b wide_a wide_b stencil3d_12 rmat10 rmat14"
BIG="stencil3d_40 stencil3d_64 grid2d_1000 uniform_200k rmat16 rmat18"
for n in $SMALL $BIG; do /tmp/gen $M $n > $M/$n.log 2>&1 & done
wait $b1 || { cat "$OUT/build.log"; exit 1; }
wait; cat $M/*.log > "$OUT/matrices.txt"; echo "built+gen $(( $(date +%s) - T0 ))s"
run() { local x=$1; shift; timeout 120 $x spgemm "$@" 2>>"$OUT/stderr.log"; echo "{\"exit\":$?}"; }
for p in f32 f64; do
  for n in one all_empty empty_rows dense_small big_row stencil3d_12 rmat10 rmat14; do run /tmp/new --a $M/$n.spb --precision $p --methods hash,hash-opt --warmup 0 --samples 1; done
  run /tmp/new --a $M/rect_a.spb --b $M/rect_b.spb --precision $p --methods hash,hash-opt --warmup 0 --samples 1
  run /tmp/new --a $M/wide_a.spb --b $M/wide_b.spb --precision $p --methods hash,hash-opt --warmup 0 --samples 1
done > "$OUT/correct.jsonl"
python3 dev/spgemm/spgemm_summary.py "$OUT/correct.jsonl" > "$OUT/correct.md"; grep -c '"status":"ok"' "$OUT/correct.jsonl"; grep -v '"status":"ok"' "$OUT/correct.jsonl" | grep '"result"' | head -5
echo "correct $(( $(date +%s) - T0 ))s"
san() { for c in "$@"; do set -- $c
  echo "## $c"; timeout ${5:-60} compute-sanitizer --tool $1 --error-exitcode 9 /tmp/new spgemm --a $M/$2.spb --precision $3 --methods ${4:-hash,hash-opt} --warmup 0 --samples 1 --reference none 2>&1 | grep -v '^{' | tail -3; echo "rc=${PIPESTATUS[0]}"
done; }
san "memcheck rmat10 f64" "racecheck dense_small f32" "memcheck rmat14 f64" "racecheck rmat14 f64 hash-opt 150" > "$OUT/sanitizer.txt" 2>&1; grep -E '##|rc=|SUMMARY' "$OUT/sanitizer.txt"
for p in f32 f64; do for n in $BIG; do
  run /tmp/new --a $M/$n.spb --precision $p --methods $METHODS --warmup 2 --samples $SAMPLES --breakdown
  [ -x /tmp/old ] && run /tmp/old --a $M/$n.spb --precision $p --methods hash-opt --warmup 2 --samples $SAMPLES --breakdown --reference none >> "$OUT/timing_base.jsonl"
done; done > "$OUT/timing.jsonl"
python3 dev/spgemm/spgemm_summary.py "$OUT/timing.jsonl" > "$OUT/timing.md"; cat "$OUT/timing.md"
echo "timing $(( $(date +%s) - T0 ))s"
for n in rmat16 rmat18 stencil3d_40; do for x in new old; do echo "## $x $n"; SPB_SPGEMM_GROUPS=1 timeout 60 /tmp/$x spgemm --a $M/$n.spb --precision f32 --methods hash-opt --warmup 1 --samples 1 --breakdown --reference none 2>&1 | grep -E '^group|breakdown' | sed 's/.*"breakdown_ms"/breakdown/'; done; done > "$OUT/groups.txt" 2>&1
san "memcheck big_row f32" "racecheck rmat10 f64" >> "$OUT/sanitizer.txt" 2>&1; grep -E '##|rc=|SUMMARY' "$OUT/sanitizer.txt"
# AB_EXTRA=1: hash-opt v6's changes switched off one at a time (SPB_SPGEMM_OFF) with each group timed alone
# (SPB_SPGEMM_GROUPS=serial); AB_STRESS=1: uniform f32 timed with and without a CPU load (host-side sensitivity)
if [ "${AB_EXTRA:-0}" = 1 ]; then
  IFS=';' read -ra VARS <<< "${AB_VARIANTS:-rmat18 none;rmat18 pieces;rmat18 bounds;rmat18 bucket;rmat16 none;rmat16 pieces;rmat16 bucket;stencil3d_40 none;stencil3d_40 pieces}"
  for v in "${VARS[@]}"; do set -- $v; n=$1; off=$2
    echo "## off=$off $n"; SPB_SPGEMM_OFF=$off SPB_SPGEMM_GROUPS=serial timeout 60 /tmp/new spgemm --a $M/$n.spb --precision f32 --methods hash-opt --warmup 1 --samples 5 --breakdown --reference none 2>&1 \
      | grep -E '^group|samples_ms' | sed -E 's/.*"samples_ms":\[([^]]*)\].*"breakdown_ms":(\{[^}]*\}).*/samples \1 breakdown \2/'
  done > "$OUT/variants.txt" 2>&1
fi
if [ "${AB_STRESS:-0}" = 1 ]; then
  for x in new old; do for load in 0 1; do
    pids=""; if [ $load = 1 ]; then for i in $(seq $(nproc)); do timeout 40 sh -c 'while :; do :; done' & pids="$pids $!"; done; fi
    echo "## $x cpu_load=$load"; timeout 60 /tmp/$x spgemm --a $M/uniform_200k.spb --precision f32 --methods hash-opt,cusparse-alg1 --warmup 2 --samples 30 --reference none 2>&1 \
      | grep samples_ms | sed -E 's/.*"method":"([^"]*)".*"samples_ms":\[([^]]*)\].*/\1 \2/'
    for p in $pids; do kill $p 2>/dev/null; done; wait $pids 2>/dev/null
  done; done > "$OUT/stress.txt" 2>&1
  echo "extra $(( $(date +%s) - T0 ))s"
fi
echo "done $(( $(date +%s) - T0 ))s"
# before/after of hash-opt (median ms) and the fastest cuSPARSE of the new run, printed last
python3 - "$OUT/timing.jsonl" "$OUT/timing_base.jsonl" <<'PY' | tee "$OUT/ab.md"
import json, statistics, sys
def load(p):
    out = {}
    try:
        for l in open(p):
            if l.startswith('{') and '"result"' in l:
                o = json.loads(l)
                if o.get('type') == 'result' and o['status'] == 'ok' and o['samples_ms']:
                    out[(o['params']['a'].split('/')[-1], o['params']['precision'], o['method'])] = statistics.median(o['samples_ms'])
    except FileNotFoundError:
        pass
    return out
new, old = load(sys.argv[1]), load(sys.argv[2])
print('| matrix | prec | hash-opt before ms | after ms | after/before | best cuSPARSE ms | speedup before | after |')
print('|---|---|---|---|---|---|---|---|')
for (a, p, m), t in sorted(new.items()):
    if m != 'hash-opt': continue
    b = old.get((a, p, m)); c = min([v for (a2, p2, m2), v in new.items() if a2 == a and p2 == p and m2.startswith('cusparse')], default=None)
    f = lambda x: '%.3f' % x if x else '-'
    print('| %s | %s | %s | %.3f | %s | %s | %s | %s |' % (a, p, f(b), t, f(t / b if b else None), f(c), f(c / b if b and c else None), f(c / t if c else None)))
PY
