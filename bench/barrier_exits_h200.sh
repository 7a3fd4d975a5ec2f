#!/usr/bin/env bash
# Do threads that returned from the kernel hold up a later __syncthreads() (bench/barrier_exits/
# exits.cu)? Each case in its own process under a 20 s timeout, plain and under
# compute-sanitizer's synccheck (where the machine's runtime supports it: docs KINDS.md).
#   bench/barrier_exits_h200.sh OUTDIR      (run from the repository root on the GPU machine)
# Writes OUTDIR/build.txt, env.txt, runs.txt (one line per case and mode: the exit status and
# what the case printed), synccheck-CASE.txt (the sanitizer's report of each case).
set -uo pipefail
OUT=$(mkdir -p "${1:?usage: barrier_exits_h200.sh OUTDIR}" && cd "$1" && pwd)
CUDA_BIN=${CUDA_HOME:-/usr/local/cuda}/bin
BIN=$(mktemp -d)/exits
"$CUDA_BIN/nvcc" -O3 -arch=sm_90 -o "$BIN" bench/barrier_exits/exits.cu > "$OUT/build.txt" 2>&1 || { cat "$OUT/build.txt"; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv > "$OUT/env.txt" 2>&1
"$CUDA_BIN/nvcc" --version | tail -2 >> "$OUT/env.txt"
: > "$OUT/runs.txt"
for c in leader bounds branch callee; do
  printed=$(timeout 20 "$BIN" "$c" 2>&1); rc=$?
  echo "plain $c rc=$rc ${printed//$'\n'/ | }" >> "$OUT/runs.txt"
  printed=$(timeout 120 "$CUDA_BIN/compute-sanitizer" --tool synccheck "$BIN" "$c" > "$OUT/synccheck-$c.txt" 2>&1); rc=$?
  echo "synccheck $c rc=$rc errors: $(grep -c 'Barrier error' "$OUT/synccheck-$c.txt") summary: $(grep 'ERROR SUMMARY' "$OUT/synccheck-$c.txt")" >> "$OUT/runs.txt"
done
cat "$OUT/runs.txt"
