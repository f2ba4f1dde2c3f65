# Sourced by the GPU machine's scripts (scripts/device/gpu-session.sh, dev/device/run-suite.sh), repository root:
# Node from .carry, the native build cache, CI output, and the commit the result files record.
# .commit (carried): the full sha of the tree that runs (git rev-parse HEAD > .commit). spbench takes $SPBENCH_COMMIT
# only as a full sha and otherwise records the copied tree's git, which may be another commit (a short sha did
# that twice: docs/spmm-notes.md), so a short one is refused before any work.
source .carry/node-env.sh
commit=$(cat .commit 2>/dev/null)
# A missing one is refused too: the logs of 509f577's GPU tests named the copied tree's older HEAD (f0523ba).
[[ -n $commit ]] || { echo "$(basename "$0"): no .commit; write it with: git rev-parse HEAD > .commit, and carry it (git ignores it)" >&2; exit 2; }
[[ $commit =~ ^[0-9a-f]{40}$ ]] || { echo "$(basename "$0"): .commit holds '$commit', not a full sha; write it with: git rev-parse HEAD > .commit" >&2; exit 2; }
export SPBENCH_CACHE_DIR=/tmp/spbench-cache CI=1 SPBENCH_COMMIT=$commit
