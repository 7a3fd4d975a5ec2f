#!/usr/bin/env bash
# One GPU call for issue #19's overhead table (docs/verification/realcode.md, "Verifier overhead"):
# builds the verifier-only CLI and the programs of bench/verify_overhead_h200.sh (not the whole
# real-code set), generates their inputs, runs the timing, and times Rodinia gaussian's default
# verification in its parts (the collector's run alone, then the offline comparison of what it kept).
# Run from a repository root where .realcode/ (bench/realcode/stage_sources.sh, with predictions/
# from predict.sh) and .deps/root (docs/verification/README.md, "Building without LLVM") are:
#
#   OUT=/tmp/overhead bash bench/verify_overhead_device.sh [NAME...]
set -uo pipefail
OUT=${OUT:?set OUT to a folder}
mkdir -p "$OUT"
ROOT=$(pwd)
source bench/realcode/realcode_lib.sh
B=${BUILD_DIR:-$ROOT/build-gpu}
W=${WORK_DIR:-$ROOT/build-realcode}
ARCH=${ARCH:-sm_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)}
NAMES=("$@")
[ ${#NAMES[@]} -eq 0 ] && NAMES=(gaussian nw lud hotspot BlackScholes transpose matrixMul)
L=$OUT/device_log.txt
{ nvidia-smi -L; nvcc --version | tail -2; ncu --version | tail -1; } > "$L" 2>&1
PREFIX=$ROOT/.deps/root/usr
cmake -S lib/verify/standalone -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$PREFIX" \
  > "$OUT/build_verifier.log" 2>&1 && cmake --build "$B" -j "$(nproc)" >> "$OUT/build_verifier.log" 2>&1 ||
  { tail -30 "$OUT/build_verifier.log"; exit 2; }
export LD_LIBRARY_PATH=$PREFIX/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
echo "== [$SECONDS s] verifier built" >> "$L"
mkdir -p "$W/bin" "$W/inputs" "$W/logs"
while IFS='|' read -r name tree dir sources flags args; do
  srcs=()
  for s in $sources; do srcs+=("$REALCODE/$tree/$dir/$s"); done
  # shellcheck disable=SC2046
  nvcc -lineinfo -O2 -arch="$ARCH" -w $(realcode_includes "$tree" "$dir") $flags -o "$W/bin/$name" "${srcs[@]}" \
    > "$W/logs/$name.nvcc.log" 2>&1 &
  for a in $args; do
    [[ $a == @GEN:* ]] || continue
    IFS=: read -r _ kind file <<< "$a"
    [ -f "$W/inputs/$file" ] || python3 bench/realcode/make_inputs.py "$kind" "$W/inputs/$file"
  done
done < <(ONLY=$(IFS='|'; echo "${NAMES[*]}") realcode_programs)
wait  # the builds run in the background, in this shell
echo "== [$SECONDS s] built: $(ls "$W/bin" | tr '\n' ' ')" >> "$L"
# Twice, to see how much the wall times move between runs.
R=$W/overhead
for run in 1 2; do
  WORK_DIR=$W BUILD_DIR=$B bash bench/verify_overhead_h200.sh "$REALCODE/predictions" "$R/run$run" "${NAMES[@]}" >> "$L" 2>&1
  cp "$R/run$run/verify_overhead.csv" "$OUT/verify_overhead_run$run.csv"
done
echo "== [$SECONDS s] timed" >> "$L"
# gaussian's default verification in parts: the program alone, under the collector alone (no CLI),
# the whole CLI with --keep, then the comparison alone on the measurements it kept.
line=$(realcode_programs | grep "^gaussian|")
if [ -n "$line" ] && [ -x "$W/bin/gaussian" ]; then
  IFS='|' read -r name tree dir sources flags args <<< "$line"
  P=$(realpath "$REALCODE/predictions/gaussian.json")
  INJ=$(find "$B" -name libcoalesce_verify_inject.so | head -1)
  cd "$REALCODE/$tree/$dir" || exit 2
  rm -rf /tmp/kg
  t0=$EPOCHREALTIME
  "$W/bin/gaussian" $args > /dev/null 2>&1
  t1=$EPOCHREALTIME
  CUDA_INJECTION64_PATH=$INJ COALESCE_VERIFY_OUT=/tmp/kg_collector.json COALESCE_VERIFY_QUIET=1 \
    "$W/bin/gaussian" $args > /dev/null 2>&1; r0=$?
  t2=$EPOCHREALTIME
  "$B/coalesce-lint" verify --predictions "$P" --allow-not-found --keep /tmp/kg -o /tmp/kg.txt \
    -- "$W/bin/gaussian" $args > /dev/null 2> /tmp/kg.err; r1=$?
  t3=$EPOCHREALTIME
  "$B/coalesce-lint" verify --predictions "$P" --allow-not-found --measurements /tmp/kg/annotated_0.json \
    -o /tmp/kg2.txt > /dev/null 2>&1; r2=$?
  t4=$EPOCHREALTIME
  cd "$ROOT" || exit 2
  {
    awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v e="$t4" -v r0="$r0" -v r1="$r1" -v r2="$r2" 'BEGIN {
      printf "gaussian -s 1024 -q, default sampling: plain %.2f s; under the collector alone %.2f s (exit %s); whole verify --keep %.2f s (exit %s); comparison alone on the kept measurements %.2f s (exit %s)\n", b - a, c - b, r0, d - c, r1, e - d, r2 }'
    ls -l /tmp/kg /tmp/kg_collector.json
    echo "configurations compared apart: $(grep -c "^configuration " /tmp/kg.txt)"
    cmp /tmp/kg.txt /tmp/kg2.txt && echo "the offline comparison gives the same report"
    tail -3 /tmp/kg.txt; cat /tmp/kg.err
  } >> "$L" 2>&1
  cp /tmp/kg.txt "$R/gaussian_report.txt"
fi
tar czf "$OUT/overhead_reports.tar.gz" -C "$W" overhead
cat "$L"
