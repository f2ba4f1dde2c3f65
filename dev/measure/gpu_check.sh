#!/usr/bin/env bash
# GPU validation of issue 12's measurement options (--cache, --samples auto, NVML clocks), run from the
# repo root on the GPU machine with .carry (Node) and dist (compiled CLI + bundle: `npm run build &&
# npm run bundle` first) carried. Budget: 120 s with the native build (the build is cached under
# /tmp/spbench-cache, so a second run is ~40 s). Everything lands in $OUT; stdout has one status line
# per step and the summary (cache, samples, stopping rule, clocks per method).
#   1. SpMM (batch 100, dim 64, nnz/row 3, n_B 64), graph mode, --cache both: hot and cold side by side
#   2. SpGEMM 3-D 27-point stencil n = 40, --cache both
#   3. a two-case suite with --samples auto (per-method timeout 1 s): sample counts and stopping rules
#   5. --profile batched-ell (ncu, one call) and --metrics dram__bytes_read.sum on two methods, where ncu is installed
#   4. the clocks of every method (NVML: SM/memory clock, temperature, power, throttle reasons)
set -u
: "${OUT:?OUT must be set}"
source .carry/node-env.sh
export SPBENCH_CACHE_DIR=/tmp/spbench-cache CI=1
R=$OUT/measure; mkdir -p "$R"
sb() { node bin/spbench.js "$@"; }
step() { # step NAME SECONDS CMD...: runs with a time limit, logs to $R/NAME.log, prints one status line
  local name=$1 limit=$2; shift 2
  local t0=$SECONDS
  timeout "$limit" "$@" >"$R/$name.log" 2>&1; local rc=$?
  printf '%-18s rc=%-3s %4ss\n' "$name" "$rc" "$((SECONDS - t0))" | tee -a "$R/steps.txt"
}
export -f sb
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv; ls -l /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1 2>&1; } >"$R/machine.txt" 2>&1
step build 65 bash -c 'sb build'
step spmm-cache 12 bash -c "sb spmm --batch 100 --dim 64 --nnz-row 3 --nb 64 --mode graph --cache both --backend cuda --json '$R/spmm-cache.json'"
step spgemm-cache 12 bash -c "sb spgemm --gen stencil:dims=3,n=40,points=27 --methods hash,hash-opt,cusparse-alg1 --cache both --backend cuda --json '$R/spgemm-cache.json'"
cat >"$R/auto-suite.json" <<'JSON'
{
  "name": "measure-auto",
  "description": "issue 12 GPU check: --samples auto (the suite default) with a 1 s timeout a method",
  "defaults": { "timeout": 1, "maxNoise": 0.5, "minSamples": 10, "minTime": 0.05 },
  "cases": [
    { "op": "spmm", "name": "spmm-100-64", "batch": 100, "dim": 64, "nnzRow": 3, "nb": 64, "mode": "graph",
      "methods": "batched-ell,batched-csr,swa-coo-shared,cusparse-blockdiag,cublas-strided" },
    { "op": "spgemm", "name": "stencil-2d", "gen": "stencil:dims=2,n=300,points=5", "methods": "hash-opt,cusparse-alg1" }
  ]
}
JSON
step suite-auto 15 bash -c "sb run '$R/auto-suite.json' --backend cuda --json '$R/auto-suite.json.result.json'"
step profile 14 bash -c "sb spmm --batch 100 --dim 64 --nnz-row 3 --nb 64 --mode graph --methods batched-ell,cusparse-blockdiag --samples 20 --backend cuda --profile batched-ell --metrics dram__bytes_read.sum,gpu__time_duration.sum --json '$R/profile.json'"
for f in spmm-cache spgemm-cache auto-suite.json.result profile; do
  [ -f "$R/$f.json" ] && sb report "$R/$f.json" >"$R/$f.table.txt" 2>&1
done
# the summary: per method its case (cache state in the label), samples and rule, clocks at start -> end
node -e '
const fs = require("fs");
for (const f of process.argv.slice(1)) {
  if (!fs.existsSync(f)) { console.log(`${f}: missing`); continue; }
  const r = JSON.parse(fs.readFileSync(f, "utf8"));
  console.log(`== ${f.split("/").pop()} (${r.device ? r.device.name : r.backend})`);
  for (const c of r.cases) for (const m of c.results) {
    const s = m.sampling ? `n=${m.sampling.n} ${m.sampling.rule}${m.sampling.noise_pct != null ? ` noise ${m.sampling.noise_pct.toFixed(2)}%` : ""}` : "-";
    const k = m.clocks;
    const clk = !k ? "no clocks" : !k.available ? `clocks n/a (${k.reason})` :
      `SM ${k.start.sm_mhz}->${k.end.sm_mhz}/${k.max_sm_mhz} MHz mem ${k.end.mem_mhz} MHz ${k.start.temp_c}->${k.end.temp_c} C ${k.end.power_w.toFixed(0)} W${k.throttled ? " THROTTLED: " + k.throttle_why : ""}${k.end.reason_names ? " [" + k.end.reason_names + "]" : ""}`;
    const med = m.median_ms == null ? m.status : `${(m.median_ms * 1000).toPrecision(4)} us`;
    console.log(`${c.id.padEnd(52)} ${m.method.padEnd(22)} ${String(m.cache ?? "-").padEnd(4)} ${med.padEnd(12)} ${s.padEnd(28)} ${clk}`);
  }
}' "$R/spmm-cache.json" "$R/spgemm-cache.json" "$R/auto-suite.json.result.json" "$R/profile.json" | tee "$R/summary.txt"
node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); console.log("profile:", JSON.stringify(r.profile)); for (const c of r.cases) for (const m of c.results) console.log("metrics", m.method, JSON.stringify(m.metrics));' "$R/profile.json" 2>&1 | tee -a "$R/summary.txt"
ls "$R"/*.ncu-rep "$R"/*.profile-*.txt 2>/dev/null | tee -a "$R/summary.txt"
echo "total ${SECONDS} s" | tee -a "$R/summary.txt"
