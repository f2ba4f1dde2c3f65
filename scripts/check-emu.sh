#!/usr/bin/env bash
# Runs the hash SpGEMM's host code and CUDA kernels on the CPU (cuda/check/emu_spgemm: a host emulation of the
# runtime and intrinsics) against the CPU reference: the default configuration (hash and hash-opt) and hash-opt
# with its long-row path forced onto small rows. No GPU needed; the GPU tests and compute-sanitizer stay the real check.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
python3 cuda/check/emu_spgemm/emu_prepare.py . "$out"
g++ -std=c++20 -O1 -pthread -I"$out" -I"$out/cuda/common" -w cuda/check/emu_spgemm/spgemm_emu.cpp -o "$out/spgemm_emu"
"$out/spgemm_emu" | grep -v ' ok$'
"$out/spgemm_emu" --long 64 | grep -v ' ok$'
