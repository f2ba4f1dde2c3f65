#!/usr/bin/env bash
# One device call: build, odd-case checks in every mode, compute-sanitizer, timing sweep.
# Run from the repository root; logs go to $OUT (or /tmp/spmm-out).
set -u
LOGS=/tmp/spmm-logs; mkdir -p $LOGS; OUT=$LOGS  # the device call tars $LOGS into the real $OUT (8-file limit)
EXE=/tmp/spmm; IN=/tmp/spmm-in; mkdir -p $IN
S=dev/spmm/summarize_spmm.py
STAGE=${STAGE:-all}  # all, or a comma list of: check,san,perf,figs,tune
want() { [[ $STAGE == all || ,$STAGE, == *,$1,* ]]; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $OUT/gpu.txt 2>&1
g++ -std=c++17 -O2 -I. dev/spmm/make_spmm_inputs.cpp -o /tmp/mkin && /tmp/mkin $IN > /dev/null || { echo "input generation failed"; exit 1; }
( time nvcc -std=c++17 -O3 -lineinfo -arch=sm_90 -I. cuda/drivers/spmm_cuda.cu -lcusparse -lcublas -o $EXE ) > $OUT/build.log 2>&1 || {
  echo "FULL BUILD FAILED"; grep -v Wno-deprecated $OUT/build.log | head -40
  nvcc -std=c++17 -O3 -lineinfo -arch=sm_90 -I. -DSPB_NO_PEERS cuda/drivers/spmm_cuda.cu -o $EXE >> $OUT/build.log 2>&1 || { echo "NO-PEERS BUILD FAILED"; tail -30 $OUT/build.log; exit 1; }
  echo "built without peers"; }
tail -4 $OUT/build.log
run() { local tag=$1; shift; timeout 200 $EXE spmm "$@" > $OUT/$tag.jsonl 2> $OUT/$tag.err; echo "$tag rc=$?"; }
if want check; then
  C="--warmup 1 --samples 3"
  for mode in kernel e2e graph; do
    run odd_$mode --input $IN/odd.spb --nb 1,17,33,1000 --mode $mode $C
    run mixed_$mode --input $IN/mixed_b100.spb --nb 1,64,1000 --mode $mode $C
    run dim1_$mode --input $IN/dim1_b10.spb --nb 1,33 --mode $mode $C
    run b1_$mode --input $IN/b1_d64_n3.spb --nb 17,64 --mode $mode $C
  done
  run odd_f64 --input $IN/odd.spb --nb 1,17,64,1000 --precision f64 $C
  run mixed_f64 --input $IN/mixed_b100.spb --nb 64,1000 --precision f64 $C
  run odd_col --input $IN/odd.spb --nb 1,17,64 --layout col $C
  run mixed_col_f64 --input $IN/mixed_b100.spb --nb 33,64 --layout col --precision f64 $C
  run big_d1000 --input $IN/b4_d1000_n5.spb --nb 64,1000 $C
  run huge_kernel --input $IN/b10000_d64_n3.spb --nb 64 --warmup 1 --samples 3
  python3 $S --check $OUT/odd_*.jsonl $OUT/mixed_*.jsonl $OUT/dim1_*.jsonl $OUT/b1_*.jsonl $OUT/big_*.jsonl $OUT/huge_*.jsonl > $OUT/check.txt 2>&1
  echo "check rc=$?"; tail -1 $OUT/check.txt
fi
if want san; then
  OURS=swa-coo,swa-csr,swa-coo-shared,swa-csr-shared,batched-coo,batched-csr,batched-csr-vec,batched-csr-vec-persist,batched-csr-flat,batched-ell,tf-sparse-dense
  for tool in memcheck racecheck; do
    timeout 150 compute-sanitizer --tool $tool --log-file $OUT/san_$tool.txt --error-exitcode 9 $EXE spmm --input $IN/odd.spb --nb 17,64 --methods $OURS --warmup 0 --samples 1 > $OUT/san_$tool.jsonl 2>&1
    echo "sanitizer $tool rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $OUT/san_$tool.txt | head -3
  done
  timeout 100 compute-sanitizer --tool memcheck --log-file $OUT/san_memcheck_mixed.txt --error-exitcode 9 $EXE spmm --input $IN/mixed_b100.spb --nb 64 --methods $OURS --warmup 0 --samples 1 --precision f64 > /dev/null 2>&1
  echo "sanitizer memcheck mixed f64 rc=$?"; grep "ERROR SUMMARY" $OUT/san_memcheck_mixed.txt
  for t in memcheck racecheck; do  # the flat kernel's 2-chunk instantiation too
    SPB_SPMM_FLAT=128,2 timeout 60 compute-sanitizer --tool $t --log-file $OUT/san_${t}_flat2.txt --error-exitcode 9 $EXE spmm --input $IN/odd.spb --nb 1,17,64,1000 --methods batched-csr-flat --warmup 0 --samples 1 > $OUT/san_${t}_flat2.jsonl 2>&1
    echo "sanitizer $t flat ch=2 rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $OUT/san_${t}_flat2.txt
  done
fi
if want perf; then
  run perf_b100_d64 --input $IN/b100_d64_n3.spb --nb 64 --mode graph
  run perf_b100_d256 --input $IN/b100_d256_n3.spb --nb 64 --mode graph
  run perf_b10000_d64 --input $IN/b10000_d64_n3.spb --nb 64 --mode graph --samples 10
  run perfk_b100_d64 --input $IN/b100_d64_n3.spb --nb 64 --mode kernel
  run perfe_b100_d64 --input $IN/b100_d64_n3.spb --nb 64 --mode e2e
  python3 $S $OUT/perf_*.jsonl $OUT/perfk_*.jsonl $OUT/perfe_*.jsonl > $OUT/perf.txt 2>&1; cat $OUT/perf.txt
fi
if want floor; then
  nvcc -std=c++17 -O3 -arch=sm_90 dev/spmm/graph_floor.cu -o /tmp/graph_floor && /tmp/graph_floor > $OUT/floor.txt 2>&1; cat $OUT/floor.txt
fi
if want ncu; then
  for c in b100_d64_n3 b10000_d64_n3; do
    timeout 120 ncu --metrics gpu__time_duration.sum,dram__bytes.sum,lts__t_bytes.sum -k regex:"csr_flat|csr_vec" --launch-count 3 --log-file $OUT/ncu_$c.txt \
      $EXE spmm --input $IN/$c.spb --nb 64 --methods batched-csr-flat --warmup 0 --samples 1 > /dev/null 2>&1
    echo "ncu $c rc=$?"; grep -E "gpu__time_duration|dram__bytes|lts__t_bytes" $OUT/ncu_$c.txt | head -6
  done
fi
if want tune; then
  for tc in 128,1 256,1 512,1 1024,1 128,2 256,2 512,2 1024,2; do
    for c in b100_d64_n3 b100_d256_n3 b10000_d64_n3; do
      SPB_SPMM_FLAT=$tc run tune_${c}_${tc/,/_} --input $IN/$c.spb --nb 64 --mode graph --methods batched-csr-flat --samples 30 > /dev/null
    done
  done
  python3 $S $OUT/tune_*.jsonl | grep -E "^== |^batched" | paste - - | awk '{print $2, $5, $6, $7}' > $OUT/tune.txt; cat $OUT/tune.txt
fi
if want figs; then
  F="--samples 10 --warmup 2 --mode ${FIGMODE:-kernel}"
  run fig6a --input $IN/b50_d50_n2.spb --nb 16,32,64,128,256,512,1024 $F
  run fig6b --input $IN/b100_d50_n3.spb --nb 16,32,64,128,256,512,1024 $F
  for c in b100_d32_n3 b100_d64_n3 b100_d128_n3 b100_d64_n1 b100_d64_n5 b50_d64_n3; do run fig7_$c --input $IN/$c.spb --nb 16,64,256,1024 $F; done
  run fig8_mixed --input $IN/mixed_b100.spb --nb 16,32,64,128,256,512,1024 $F
  python3 $S $OUT/fig*.jsonl > $OUT/figs.txt 2>&1; echo "figs summarized: $(wc -l < $OUT/figs.txt) lines"
fi
