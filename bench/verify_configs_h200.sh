#!/usr/bin/env bash
# GPU checks of issue #19 (measurements per launch configuration, programs that fork and launch
# from several threads), as recorded in test/verify/data/programs/configs_checks_h200.txt.
# Run from the repository root of a tree with .deps/root (docs/verification/README.md, "Building
# without LLVM"); OUT is where the log and the kept measurements go:
#
#   OUT=/tmp/configs bash bench/verify_configs_h200.sh
#
# It builds the verifier-only CLI, then verifies test/verify/data/programs/configs_demo.cu (one
# kernel in two block shapes) and procs_demo.cu (a fork, four launching threads, a late fork),
# each with the default sampling and with --sample all.
set -uo pipefail
OUT=${OUT:?set OUT to a folder}
mkdir -p "$OUT"
ROOT=$(pwd)
L=$OUT/log.txt
{ nvidia-smi -L; nvcc --version | tail -2; } > "$L" 2>&1
B=${BUILD_DIR:-/tmp/build-gpu}
cmake -S lib/verify/standalone -B "$B" -G Ninja -DCMAKE_PREFIX_PATH="$ROOT/.deps/root/usr" > /tmp/cmake.log 2>&1 \
  && cmake --build "$B" -j16 >> /tmp/cmake.log 2>&1 || { tail -60 /tmp/cmake.log >> "$L"; exit 1; }
export LD_LIBRARY_PATH=$ROOT/.deps/root/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
CL=$B/coalesce-lint
cd test/verify/data/programs || exit 2
step() { echo "\$ $*"; "$@"; echo "exit $?"; }
{
  step "$CL" verify --timeout 60 --predictions configs_demo.predictions.json --keep /tmp/kc configs_demo.cu
  cp /tmp/kc/annotated_0.json "$OUT/configs_demo.measurements.json"
  step "$CL" verify --timeout 60 --predictions configs_demo.predictions.json --format json \
    -o "$OUT/configs_report.json" --measurements /tmp/kc/annotated_0.json
  step "$CL" verify --timeout 60 --sample all --predictions configs_demo.predictions.json configs_demo.cu
  step "$CL" verify --timeout 120 --predictions procs_demo.predictions.json --keep /tmp/kp procs_demo.cu
  ls /tmp/kp
  cp /tmp/kp/annotated_0.json "$OUT/procs_demo.measurements.json"
  step "$CL" verify --timeout 120 --sample all --predictions procs_demo.predictions.json procs_demo.cu
  step "$CL" verify --timeout 60 --predictions verify_demo.predictions.json verify_demo.cu
  # A program started by a shell, twice: each run forks, so four processes write measurements.
  nvcc -lineinfo -O2 -arch=sm_90 -o /tmp/procs_demo procs_demo.cu
  step "$CL" verify --timeout 120 --predictions procs_demo.predictions.json -- sh -c "/tmp/procs_demo && /tmp/procs_demo"
  # Wall time, plain and verified (default sampling), of the forking, four-thread program.
  for i in 1 2 3; do
    t0=$EPOCHREALTIME; /tmp/procs_demo > /dev/null; t1=$EPOCHREALTIME
    "$CL" verify --timeout 120 --predictions procs_demo.predictions.json -- /tmp/procs_demo > /dev/null 2>&1; rc=$?
    t2=$EPOCHREALTIME
    awk -v a="$t0" -v b="$t1" -v c="$t2" -v rc="$rc" \
      'BEGIN { printf "procs_demo wall seconds: plain %.2f, verify %.2f (exit %s)\n", b - a, c - b, rc }'
  done
} >> "$L" 2>&1
