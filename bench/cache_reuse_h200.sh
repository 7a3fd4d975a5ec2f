#!/usr/bin/env bash
# GPU calibration of the cache-reuse level (lib/report/src/cache_reuse_level.cpp,
# docs/findings.md "Levels"): a thread walking its own 256-byte row, at 8 to 64 resident warps
# per SM, against the same rows read coalesced; and the same walks as stores; and rows of 2 to 64
# floats (short_rows.csv); and lanes 2 floats apart whose gaps the next taps fill, against the
# same words read coalesced, with gaps never filled as the control (filled_gaps.csv). Records
# wall times (cudaEvent, 5 launches) and, under ncu, the L1 hit rate and the sectors L1 fetched
# from L2 per launch.
#   bench/cache_reuse_h200.sh OUTDIR      (run from the repository root on the GPU machine)
set -euo pipefail
OUT=$(mkdir -p "${1:?usage: cache_reuse_h200.sh OUTDIR}" && cd "$1" && pwd)
CUDA_BIN=${CUDA_HOME:-/usr/local/cuda}/bin
"$CUDA_BIN/nvcc" -O3 -arch=sm_90 -o "$OUT/row_walk" bench/cache_reuse/row_walk.cu
nvidia-smi --query-gpu=name,driver_version --format=csv > "$OUT/env.txt"
"$OUT/row_walk" > "$OUT/times.csv"
"$OUT/row_walk" rows > "$OUT/short_rows.csv"   # 2 to 64 floats per thread (session 7)
"$OUT/row_walk" taps > "$OUT/filled_gaps.csv"  # stride-2 lanes over taps 0..k, and a 5x5 window (session 13)
"$CUDA_BIN/ncu" --csv --metrics l1tex__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,dram__bytes_read.sum,gpu__time_duration.sum \
  --log-file "$OUT/ncu_filled_gaps.csv" "$OUT/row_walk" taps-once > /dev/null
"$CUDA_BIN/ncu" --csv --metrics l1tex__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,gpu__time_duration.sum,launch__grid_size \
  --log-file "$OUT/ncu.csv" "$OUT/row_walk" once > /dev/null
