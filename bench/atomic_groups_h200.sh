#!/usr/bin/env bash
# Times bench/atomic_groups/atomic_triples.cu on the GPU machine (see that file for why), and
# reads under ncu each kernel's L2 atomic and reduction sector counts on its first launch.
#   bash bench/atomic_groups_h200.sh OUTDIR   (from the repository root)
# Writes OUTDIR/env.txt, times.csv, ncu.csv. Session 40's run came on an H100: bench/atomic_groups/h100/.
set -uo pipefail
OUT=$(mkdir -p "${1:?usage: atomic_groups_h200.sh OUTDIR}" && cd "$1" && pwd)
CUDA_BIN=${CUDA_HOME:-/usr/local/cuda}/bin
NVCC=$(command -v nvcc || echo "$CUDA_BIN/nvcc")
NCU=$(command -v ncu || ls "$CUDA_BIN/ncu" /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda*/nsight-compute*/ncu 2>/dev/null | head -1)
WORK=$(mktemp -d)
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv; "$NVCC" --version | tail -1; } > "$OUT/env.txt" 2>&1
"$NVCC" -O3 -arch=sm_90 -o "$WORK/atomic_triples" bench/atomic_groups/atomic_triples.cu || exit 1
"$WORK/atomic_triples" > "$OUT/times.csv"
if [ -n "$NCU" ]; then
  "$NCU" --csv --launch-count 4 \
    --metrics lts__t_sectors_op_red.sum,lts__t_sectors_op_atom.sum,lts__t_requests_op_red.sum,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum,gpu__time_duration.sum \
    "$WORK/atomic_triples" > "$OUT/ncu.csv" 2>&1
fi
rm -rf "$WORK"
