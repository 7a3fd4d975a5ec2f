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
R=$W/overhead
WORK_DIR=$W BUILD_DIR=$B bash bench/verify_overhead_h200.sh "$REALCODE/predictions" "$R" "${NAMES[@]}" >> "$L" 2>&1
cp "$R/verify_overhead.csv" "$OUT/"
echo "== [$SECONDS s] timed" >> "$L"
# gaussian's default verification in parts: the program under the collector (CLI with --keep), then
# the comparison alone on the kept measurements.
line=$(realcode_programs | grep "^gaussian|")
if [ -n "$line" ] && [ -x "$W/bin/gaussian" ]; then
  IFS='|' read -r name tree dir sources flags args <<< "$line"
  cd "$REALCODE/$tree/$dir" || exit 2
  rm -rf /tmp/kg
  t0=$EPOCHREALTIME
  "$B/coalesce-lint" verify --predictions "$REALCODE/predictions/gaussian.json" --allow-not-found --keep /tmp/kg \
    -o /tmp/kg.txt -- "$W/bin/gaussian" $args > /dev/null 2>&1; r1=$?
  t1=$EPOCHREALTIME
  "$B/coalesce-lint" verify --predictions "$REALCODE/predictions/gaussian.json" --allow-not-found \
    --measurements /tmp/kg/annotated_0.json -o /tmp/kg2.txt > /dev/null 2>&1; r2=$?
  t2=$EPOCHREALTIME
  cd "$ROOT" || exit 2
  {
    awk -v a="$t0" -v b="$t1" -v c="$t2" -v r1="$r1" -v r2="$r2" 'BEGIN {
      printf "gaussian -s 1024, default sampling: whole verify %.2f s (exit %s); comparison alone on the kept measurements %.2f s (exit %s)\n", b - a, r1, c - b, r2 }'
    ls -l /tmp/kg
    grep -c "^configuration " /tmp/kg.txt
    tail -3 /tmp/kg.txt
  } >> "$L" 2>&1
  cp /tmp/kg.txt "$R/gaussian_report.txt"
fi
tar czf "$OUT/overhead_reports.tar.gz" -C "$W" overhead
cat "$L"
