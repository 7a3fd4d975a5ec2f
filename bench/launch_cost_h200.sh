#!/usr/bin/env bash
# What one kernel launch costs on the GPU machine (bench/launch_cost/launch_cost.cu): the
# measurement behind model::Arch::launchSeconds, the floor of MinWastePerRun (docs/findings.md,
# "Levels"). Three repetitions of each case; the CSV and the GPU's name land in OUTDIR.
#   bench/launch_cost_h200.sh OUTDIR      (run from the repository root on the GPU machine)
set -euo pipefail
OUT=$(mkdir -p "${1:?usage: launch_cost_h200.sh OUTDIR}" && cd "$1" && pwd)
CUDA_BIN=${CUDA_HOME:-/usr/local/cuda}/bin
"$CUDA_BIN/nvcc" -O3 -arch=sm_90 -o "$OUT/launch_cost" bench/launch_cost/launch_cost.cu
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/env.txt"
"$OUT/launch_cost" > "$OUT/launch_cost.csv"
# The floor's example timed with and without its conflict (bench/launch_cost/demo_tile.cu).
"$CUDA_BIN/nvcc" -O3 -arch=sm_90 -o "$OUT/demo_tile" bench/launch_cost/demo_tile.cu
"$OUT/demo_tile" > "$OUT/demo_tile.csv"
rm -f "$OUT/launch_cost" "$OUT/demo_tile"
