#!/bin/bash
# GPU machine, repository root, OUT set, .carry / dist / .dev carried: a suite (spbench run) against the session's
# native build: SPBENCH_CACHE_DIR as scripts/device/gpu-session.sh sets it, the prebuilt SpMM driver placed first
# (dev/device/prebuilt.mjs), so that the run builds nothing. (Started without the session's cache dir, a run
# rebuilt the driver, 142 s, and was cut off: docs/spmm-notes.md, 2026-11-27 #7.)
#   bash dev/device/run-suite.sh dev/spmm/unseen-sweep.json unseen [seconds]   -> $OUT/unseen.json, $OUT/unseen.log
set -u
: "${OUT:?}"
suite=${1:?suite file}; name=${2:?output name}; limit=${3:-300}
source scripts/device/env.sh  # Node, cache dir, CI, the commit (a short .commit is refused)
node dev/device/prebuilt.mjs place
t0=$SECONDS
timeout "$limit" node bin/spbench.js run "$suite" --backend cuda --json "$OUT/$name.json" >"$OUT/$name.log" 2>&1
echo "$name rc=$? $((SECONDS - t0)) s"
