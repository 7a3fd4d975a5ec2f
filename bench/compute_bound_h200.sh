#!/usr/bin/env bash
# GPU calibration of the roofline floor (arithmetic against memory time): three kernel families
# (int64 SHA-512-like, int32 SHA-256-like, fp32 FMA chains) at 0 to 128 rounds a thread, each
# with its state laid out per thread (in[t*W+u]) and coalesced (in[u*n+t]); n = 2^22 threads.
# Records wall times (cudaEvent, median of 20 after 3 warm-ups) and, under ncu, one launch of
# each variant: SASS warp instructions, cycles, duration, DRAM bytes, L1 sectors, pipe counts.
#   bench/compute_bound_h200.sh OUTDIR      (run from the repository root on the GPU machine)
# Writes at most 8 files into OUTDIR: build.txt env.txt times.csv run.txt ncu.csv ncu_sol.csv
# sass_summary.txt sass.txt.gz; the binary stays in a temporary folder.
set -euo pipefail
OUT=$(mkdir -p "${1:?usage: compute_bound_h200.sh OUTDIR}" && cd "$1" && pwd)
CUDA_BIN=${CUDA_HOME:-/usr/local/cuda}/bin
BIN=$(mktemp -d)/rounds
"$CUDA_BIN/nvcc" -O3 -arch=sm_90 -Xptxas -v -o "$BIN" bench/compute_bound/rounds.cu 2> "$OUT/build.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv > "$OUT/env.txt" \
  || nvidia-smi --query-gpu=name,driver_version --format=csv > "$OUT/env.txt"
status=0
"$BIN" > "$OUT/times.csv" 2> "$OUT/run.txt" || status=$?   # stderr: registers, min/max, checks
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv,noheader >> "$OUT/env.txt" || true
# Static SASS of every kernel: a per-kernel count of opcodes (with modifiers), and the whole dump.
"$CUDA_BIN/cuobjdump" -sass "$BIN" > "${BIN}.sass" || true
gzip -c "${BIN}.sass" > "$OUT/sass.txt.gz" || true
python3 - "${BIN}.sass" > "$OUT/sass_summary.txt" <<'EOF' || true
import collections, re, sys
kernel, counts = None, collections.OrderedDict()
for line in open(sys.argv[1]):
    m = re.match(r'\s+Function : (\S+)', line)
    if m:
        kernel = m.group(1); counts[kernel] = collections.Counter(); continue
    m = re.match(r'\s+/\*[0-9a-f]{4,}\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)', line)
    if kernel and m:
        counts[kernel][m.group(2)] += 1
for k, c in counts.items():
    print(k, 'total', sum(c.values()), ' '.join('%s:%d' % kv for kv in c.most_common()))
EOF
cat "$OUT/times.csv"
"$CUDA_BIN/ncu" --clock-control none --csv --metrics smsp__inst_executed.sum,sm__cycles_elapsed.avg,gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,sm__inst_executed_pipe_alu.sum,sm__inst_executed_pipe_fma.sum,sm__inst_executed_pipe_fp64.sum \
  --log-file "$OUT/ncu.csv" "$BIN" once > /dev/null
# Speed-of-light shares (not needed for the tables; allowed to fail).
"$CUDA_BIN/ncu" --clock-control none --csv -k regex:'^k_' --metrics dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active \
  --log-file "$OUT/ncu_sol.csv" "$BIN" once > /dev/null || echo "ncu_sol failed" >&2
tail -3 "$OUT/run.txt"
exit "$status"
