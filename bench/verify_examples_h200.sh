#!/usr/bin/env bash
# Every access of kernels/examples/ predicted against measured on a GPU machine, with the
# verifier alone (lib/verify/standalone: no LLVM needed there), then an Nsight Compute
# SourceCounters cross-check of a few of the same programs. docs/verification/h200.md is
# written from what it produces.
#
#   [WORK_DIR=DIR] bench/verify_examples_h200.sh PREDICTIONS OUTDIR [FILES...]
#
# Run from the repository root. PREDICTIONS is `coalesce-lint --format=json -q kernels/examples/`
# run from the repository root on a CPU machine; FILES default to kernels/examples/*.cu.
# Needs CUDA (nvcc, CUPTI, nvdisasm, ncu), CMake and ninja; fmt, CLI11 and nlohmann/json are
# taken from .deps/root/usr when present. Writes to OUTDIR:
#   verify_examples.json  `coalesce-lint verify --format json` over every file (files mode)
#   verify_examples.txt   the same comparison as text (re-run offline on the kept measurements),
#                         memory lines then one line per predicted branch (divergence)
#   run.log               each step, its exit code and time
#   h200_examples.tar.gz  environment, build and nvcc logs, per-example measurements
#                         (annotated_N.json renamed <example>.measurements.json), SASS listings,
#                         the ncu CSVs and the cross-check
set -uo pipefail
PRED=$(realpath "${1:?usage: verify_examples_h200.sh PREDICTIONS OUTDIR [FILES...]}")
OUTDIR=$(mkdir -p "${2:?}" && cd "$2" && pwd)
shift 2
FILES=("$@")
[ ${#FILES[@]} -eq 0 ] && FILES=(kernels/examples/*.cu)
ROOT=$(pwd)
B=${BUILD_DIR:-$ROOT/build-gpu}
W=${WORK_DIR:-$OUTDIR/work}  # binaries, kept cubins, listings: large, not for OUTDIR
NCU_BUDGET_S=${NCU_BUDGET_S:-330}  # skip the ncu cross-check when the run is already this long
mkdir -p "$W/raw" "$W/ncu"
LOG=$OUTDIR/run.log
: > "$LOG"
log() { echo "== [$SECONDS s] $*" | tee -a "$LOG"; }

{
  nvidia-smi -L
  nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total,clocks.max.sm --format=csv
  nvcc --version | tail -2
  ncu --version | tail -1
  uname -r
  printf '%s\n' "${FILES[@]}"
} > "$W/raw/environment.txt" 2>&1
log "$(nvidia-smi -L | head -1); ${#FILES[@]} files"

log "configure + build the verifier (lib/verify/standalone)"
PREFIX=$ROOT/.deps/root/usr
CMAKE_DEPS=()
if [ -d "$PREFIX" ]; then
  CMAKE_DEPS=(-DCMAKE_PREFIX_PATH="$PREFIX"
    -Dfmt_DIR="$PREFIX/lib/x86_64-linux-gnu/cmake/fmt"
    -DCLI11_DIR="$PREFIX/share/cmake/CLI11"
    -Dnlohmann_json_DIR="$PREFIX/share/cmake/nlohmann_json")
fi
cmake -S "$ROOT/lib/verify/standalone" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  "${CMAKE_DEPS[@]}" > "$W/raw/build.log" 2>&1 &&
  cmake --build "$B" -j "$(nproc)" >> "$W/raw/build.log" 2>&1
rc=$?
log "build: rc=$rc"
[ $rc -eq 0 ] || { tail -30 "$W/raw/build.log"; exit 2; }
CL=$B/coalesce-lint

# The branch counters (divergence) on one program first: if collecting them fails, the
# memory verification goes on without them (COALESCE_VERIFY_NO_BRANCH_METRICS=1).
PROBE=kernels/examples/divergence_parity.cu
if [ -f "$PROBE" ]; then
  "$CL" verify --predictions "$PRED" --keep "$W/probe" --timeout 60 --allow-not-found "$PROBE" \
    > "$W/raw/probe.txt" 2>&1
  r=$?
  log "probe with branch counters ($PROBE): exit $r; $(tail -1 "$W/raw/probe.txt")"
  if [ $r -eq 2 ]; then
    export COALESCE_VERIFY_NO_BRANCH_METRICS=1
    log "branch counters left out: COALESCE_VERIFY_NO_BRANCH_METRICS=1"
  fi
fi

# Files mode: nvcc -lineinfo -O2 -arch=sm_<local>, run under the collector, nvdisasm -c -gi.
KEEP=$W/keep
log "coalesce-lint verify --predictions $(basename "$PRED") --keep KEEP --timeout 60 --format json <${#FILES[@]} files>"
"$CL" verify --predictions "$PRED" --keep "$KEEP" --timeout 60 --format json \
  -o "$OUTDIR/verify_examples.json" "${FILES[@]}" 2> "$W/raw/verify_stderr.txt"
VRC=$?
log "files mode: exit $VRC; stderr: $(tr '\n' ' ' < "$W/raw/verify_stderr.txt")"

if [ $VRC -eq 2 ]; then
  # Could not verify as a whole (one program failed): each file alone, so that the
  # report covers every file that can be verified and names the others.
  log "files mode failed: verifying each file alone"
  rm -rf "$KEEP" && mkdir -p "$KEEP"
  : > "$W/raw/failures.txt"
  for i in "${!FILES[@]}"; do
    f=${FILES[$i]}
    "$CL" verify --predictions "$PRED" --keep "$W/one_$i" --timeout 60 --allow-not-found \
      --format json -o "$W/one_$i.json" "$f" 2> "$W/one_$i.err"
    r=$?
    if [ -f "$W/one_$i/annotated_0.json" ]; then
      cp "$W/one_$i/annotated_0.json" "$KEEP/annotated_$i.json"
      for c in "$W/one_$i"/cubins_0/*.sass; do [ -f "$c" ] && mkdir -p "$KEEP/cubins_$i" && cp "$c" "$KEEP/cubins_$i/"; done
      cp "$W/one_$i/$(basename "$f" .cu)_0" "$KEEP/$(basename "$f" .cu)_$i" 2> /dev/null
    else
      echo "$f: exit $r: $(tr '\n' ' ' < "$W/one_$i.err")" | tee -a "$W/raw/failures.txt"
    fi
  done
  "$CL" verify --predictions "$PRED" --format json -o "$OUTDIR/verify_examples.json" \
    --measurements "$KEEP"/annotated_*.json
  VRC=$?
  log "offline over the files that ran: exit $VRC"
fi

# The same comparison as text, offline on the annotated measurements (opcodes and
# inlined-at chains attached), and a check that offline gives the same JSON.
"$CL" verify --predictions "$PRED" --measurements "$KEEP"/annotated_*.json > "$OUTDIR/verify_examples.txt"
log "text report (offline): exit $?; $(tail -1 "$OUTDIR/verify_examples.txt")"
"$CL" verify --predictions "$PRED" --measurements "$KEEP"/annotated_*.json --format json -o "$W/offline.json"
python3 - "$OUTDIR/verify_examples.json" "$W/offline.json" << 'EOF' | tee -a "$LOG"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
print("offline JSON equals files-mode JSON:", a["lines"] == b["lines"] and a["summary"] == b["summary"])
EOF

# Raw data, one set per example.
for i in "${!FILES[@]}"; do
  s=$(basename "${FILES[$i]}" .cu)
  [ -f "$KEEP/annotated_$i.json" ] && cp "$KEEP/annotated_$i.json" "$W/raw/$s.measurements.json"
  cat "$KEEP/cubins_$i"/*.sass 2> /dev/null | grep -v ' NOP' > "$W/raw/$s.sass.txt"
  cp "$KEEP/${s}_$i.nvcc.log" "$W/raw/$s.nvcc.log" 2> /dev/null
done

# Nsight Compute SourceCounters on a few of the same binaries.
NCU_PROGS=(global_stride2 global_aos global_atomics global_random_gather shared_stride32
  shared_matmul_tiled shared_histogram shared_reduction_interleaved)
if [ $SECONDS -lt "$NCU_BUDGET_S" ]; then
  log "Nsight Compute SourceCounters cross-check"
  for s in "${NCU_PROGS[@]}"; do
    [ $SECONDS -lt $((NCU_BUDGET_S + 120)) ] || { log "ncu: out of time before $s"; break; }
    exe=
    for i in "${!FILES[@]}"; do [ "$(basename "${FILES[$i]}" .cu)" = "$s" ] && exe=$KEEP/${s}_$i; done
    [ -x "$exe" ] || { log "ncu $s: no binary"; continue; }
    timeout 60 ncu --clock-control none --section SourceCounters -f -o "$W/ncu/ncu_$s" "$exe" \
      > "$W/ncu/ncu_$s.log" 2>&1
    r=$?
    ncu --import "$W/ncu/ncu_$s.ncu-rep" --page source --csv --print-source sass \
      > "$W/ncu/ncu_$s.csv" 2>> "$W/ncu/ncu_$s.log"
    log "ncu $s: rc=$r/$? $(grep -c '^"Kernel Name"' "$W/ncu/ncu_$s.csv") listings"
    rm -f "$W/ncu/ncu_$s.ncu-rep"
  done
  python3 "$ROOT/bench/crosscheck_examples_ncu.py" "$W/ncu" "$W/raw" > "$W/ncu/crosscheck_ncu.txt" 2>&1
  log "crosscheck: exit $?; $(tail -1 "$W/ncu/crosscheck_ncu.txt")"
else
  log "ncu cross-check skipped: $SECONDS s spent (NCU_BUDGET_S=$NCU_BUDGET_S)"
fi

cp "$LOG" "$W/raw/run.log"
tar czf "$OUTDIR/h200_examples.tar.gz" -C "$W" raw ncu
log "packed $(du -h "$OUTDIR/h200_examples.tar.gz" | cut -f1); verify exit $VRC"
exit 0
