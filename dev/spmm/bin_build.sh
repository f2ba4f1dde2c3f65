#!/bin/bash
# Builds the SpMM driver here (nvcc, no cuSPARSE / cuBLAS: -DSPB_NO_PEERS) into .dev/bin/NAME.xz, for
# development calls on the GPU machine that need no device build (dev/spmm/bin_dev.sh): ours only.
#   bash dev/spmm/bin_build.sh NAME [extra nvcc flags]      (~90 s; ptxas registers/spills in .dev/bin/NAME.ptxas)
set -eu
name=${1:?name}; shift
mkdir -p .dev/bin
nvcc -std=c++17 -O3 -lineinfo -arch=sm_90 -I. -DSPB_NO_PEERS --resource-usage "$@" cuda/drivers/spmm_cuda.cu -o ".dev/bin/$name" >".dev/bin/$name.ptxas" 2>&1
xz -T2 -f ".dev/bin/$name"  # carried compressed: the device call's 64 MiB limit
ls -la ".dev/bin/$name.xz"
