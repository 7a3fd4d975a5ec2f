#!/usr/bin/env bash
# GPU confirmation of the occupancy figures (kernels[].occupancy) and of the
# shared-tiling-opportunity hint, on a machine with CUDA and Nsight Compute (ncu); no LLVM,
# no build of the tool needed there. test/verify/occupancy_tiling_check.py compares what this
# records with the tool's predictions on a CPU machine (CTest: verify: occupancy and tiling
# on the H200; docs/occupancy.md).
#
#   bench/occupancy_tiling_h200.sh OUTDIR [FILES...]
#
# Run from the repository root. FILES default to the examples in
# bench/occupancy_tiling/examples.txt. Each one is built with nvcc (-arch=$ARCH, default the
# local GPU's; -Xptxas -v for ptxas's register count), its resource usage dumped with
# cuobjdump, and run once under ncu collecting, per kernel launch:
#   sm__maximum_warps_per_active_cycle_pct                theoretical occupancy (%)
#   launch__occupancy_limit_{blocks,registers,shared_mem,warps}   blocks per SM each allows
#   sm__warps_active.avg.pct_of_peak_sustained_active     achieved occupancy (%)
#   launch__registers_per_thread, launch__block_size,
#   launch__shared_mem_per_block_{static,dynamic}, launch__shared_mem_config_size
#   l1tex__t_sector_hit_rate.pct, l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,
#   lts__t_sectors_srcunit_tex_op_read.sum                L1 hits and L1-vs-L2 global load traffic
# Writes to OUTDIR: occupancy_tiling_h200.json (what the checker reads: commit it as
# bench/occupancy_tiling/h200.json), occupancy_tiling_h200.csv (one row per kernel launch),
# run.log, and raw/ (environment, nvcc/ptxas logs, cuobjdump and ncu outputs).
# Environment: NVCC, NCU, CUOBJDUMP (default: on PATH or in $CUDA_HOME/bin), ARCH.
set -uo pipefail
OUTDIR=$(mkdir -p "${1:?usage: occupancy_tiling_h200.sh OUTDIR [FILES...]}" && cd "$1" && pwd)
shift
FILES=("$@")
if [ ${#FILES[@]} -eq 0 ]; then
  mapfile -t FILES < <(grep -v '^#' bench/occupancy_tiling/examples.txt | sed '/^$/d')
fi
CUDA_BIN=${CUDA_HOME:-/usr/local/cuda}/bin
tool() { command -v "$1" 2>/dev/null || echo "$CUDA_BIN/$1"; }
NVCC=${NVCC:-$(tool nvcc)}
NCU=${NCU:-$(tool ncu)}
CUOBJDUMP=${CUOBJDUMP:-$(tool cuobjdump)}
RAW=$OUTDIR/raw
mkdir -p "$RAW"
LOG=$OUTDIR/run.log
: > "$LOG"
log() { echo "== [$SECONDS s] $*" | tee -a "$LOG"; }
for t in "$NVCC" "$NCU" "$CUOBJDUMP"; do
  [ -x "$t" ] || { log "missing: $t (set NVCC, NCU, CUOBJDUMP or CUDA_HOME)"; exit 2; }
done
if [ -z "${ARCH:-}" ]; then
  cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')
  ARCH=sm_${cc:-90}
fi
METRICS=sm__maximum_warps_per_active_cycle_pct,launch__occupancy_limit_blocks,launch__occupancy_limit_registers
METRICS+=,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps
METRICS+=,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__block_size
METRICS+=,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic,launch__shared_mem_config_size
METRICS+=,l1tex__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
METRICS+=,lts__t_sectors_srcunit_tex_op_read.sum

{
  nvidia-smi -L
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv
  "$NVCC" --version | tail -2
  "$NCU" --version | tail -1
  echo "arch $ARCH"
  printf '%s\n' "${FILES[@]}"
} > "$RAW/environment.txt" 2>&1
log "$(nvidia-smi -L 2>/dev/null | head -1); $ARCH; ${#FILES[@]} files"

failed=0
for f in "${FILES[@]}"; do
  name=$(basename "$f" .cu)
  exe=$RAW/$name
  if ! "$NVCC" -arch="$ARCH" -lineinfo -O2 -Xptxas -v -o "$exe" "$f" > "$RAW/$name.nvcc.txt" 2>&1; then
    log "$name: nvcc failed: $(head -3 "$RAW/$name.nvcc.txt" | tr '\n' ' ')"
    failed=1
    continue
  fi
  "$CUOBJDUMP" --dump-resource-usage "$exe" > "$RAW/$name.resources.txt" 2>&1
  # One CSV row per metric and kernel launch (the details page). With --log-file, ncu writes
  # its report there, after its own ==PROF== messages: the CSV is the lines that start with a
  # quote. The program's own output goes to run.txt.
  if ! "$NCU" --metrics "$METRICS" --csv --print-units base --log-file "$RAW/$name.ncu.log" \
       "$exe" > "$RAW/$name.run.txt" 2>&1; then
    log "$name: ncu failed: $(tail -3 "$RAW/$name.ncu.log" "$RAW/$name.run.txt" 2>/dev/null | tr '\n' ' ')"
    failed=1
    continue
  fi
  grep '^"' "$RAW/$name.ncu.log" > "$RAW/$name.ncu.csv"
  log "$name: $(grep -c '' "$RAW/$name.ncu.csv") CSV lines"
done

python3 bench/occupancy_tiling_collect.py "$RAW" "$OUTDIR/occupancy_tiling_h200.json" "$OUTDIR/occupancy_tiling_h200.csv" \
  "${FILES[@]}" >> "$LOG" 2>&1
rc=$?
log "collect: rc=$rc; $(tail -1 "$LOG")"
[ $rc -eq 0 ] || exit 2
exit $failed
