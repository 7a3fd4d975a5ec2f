#!/usr/bin/env bash
# Wall time of the verifier against a plain run and Nsight Compute, on public programs that launch
# their kernels many times (issue #19). Run on the GPU machine after bench/realcode/measure_h200.sh
# has built the programs (build-realcode/bin) and the verifier (build-gpu):
#
#   bench/verify_overhead_h200.sh PREDICTIONS_DIR OUTDIR [NAME...]
#
# For each program (names of bench/realcode/programs.txt): the plain run, `coalesce-lint verify`
# with its default sampling (first launch of each distinct configuration), and
# `ncu --kernel-id ::regex:.:1 --section SourceCounters` (the first launch of each kernel, with
# per-instruction source counters). Prints a table; writes OUTDIR/verify_overhead.csv.
set -uo pipefail
PRED=$(realpath "${1:?usage: verify_overhead_h200.sh PREDICTIONS_DIR OUTDIR [NAME...]}")
OUTDIR=$(mkdir -p "${2:?}" && cd "$2" && pwd)
shift 2
NAMES=("$@")
[ ${#NAMES[@]} -eq 0 ] && NAMES=(gaussian nw lud BlackScholes transpose)
ROOT=$(pwd)
source bench/realcode/realcode_lib.sh
W=${WORK_DIR:-$ROOT/build-realcode}
CL=${BUILD_DIR:-$ROOT/build-gpu}/coalesce-lint
export LD_LIBRARY_PATH=$ROOT/.deps/root/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
CSV=$OUTDIR/verify_overhead.csv
echo "program,launches,measured_launches,plain_s,verify_s,ncu_s,verify_exit,ncu_exit" > "$CSV"
now() { echo "$EPOCHREALTIME"; }
for name in "${NAMES[@]}"; do
  line=$(realcode_programs | grep "^$name|") || continue
  IFS='|' read -r name tree dir sources flags args <<< "$line"
  exe=$W/bin/$name
  [ -x "$exe" ] || { echo "$name: not built"; continue; }
  a=()
  for x in $args; do [[ $x == @GEN:* ]] && x=$W/inputs/${x##*:}; a+=("$x"); done
  cd "$REALCODE/$tree/$dir" || continue
  t0=$(now); timeout 300 "$exe" "${a[@]}" > /dev/null 2>&1; t1=$(now)
  timeout 300 "$CL" verify --predictions "$PRED/$name.json" --allow-not-found --format json \
    -o "$W/overhead_$name.json" -- "$exe" "${a[@]}" > /dev/null 2> "$W/overhead_$name.err"; rv=$?; t2=$(now)
  timeout 300 ncu --clock-control none --kernel-id ::regex:.:1 --section SourceCounters -f \
    -o "$W/overhead_$name" "$exe" "${a[@]}" > "$W/overhead_$name.ncu.log" 2>&1; rn=$?; t3=$(now)
  cd "$ROOT" || exit 2
  counts=$(python3 -c "
import json,sys
r=json.load(open(sys.argv[1]))
n=[x for x in r.get('notes',[]) if 'kernel launches measured' in x]
print(n[0].split(' of ')[1].split(' ')[0] + ',' + n[0].split(' ')[0] if n else ',')" "$W/overhead_$name.json" 2> /dev/null || echo ",")
  awk -v n="$name" -v c="$counts" -v a="$t0" -v b="$t1" -v d="$t2" -v e="$t3" -v rv="$rv" -v rn="$rn" \
    'BEGIN { printf "%s,%s,%.2f,%.2f,%.2f,%s,%s\n", n, c, b - a, d - b, e - d, rv, rn }' >> "$CSV"
done
cat "$CSV"
