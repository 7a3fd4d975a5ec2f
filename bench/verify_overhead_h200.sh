#!/usr/bin/env bash
# Wall time of the verifier against a plain run and Nsight Compute, on public programs that launch
# their kernels many times (issue #19). Run on the GPU machine after the programs are built
# (build-realcode/bin, bench/realcode/measure_h200.sh or bench/verify_overhead_device.sh) and the
# verifier (build-gpu):
#
#   bench/verify_overhead_h200.sh PREDICTIONS_DIR OUTDIR [NAME...]
#
# For each program (names of bench/realcode/programs.txt), each timed once, in this order:
#   plain         the program alone
#   verify        `coalesce-lint verify` with its default sampling (the first launch of each distinct
#                 configuration, every one: --sample config)
#   verify_first  `coalesce-lint verify --sample first` (the first launch of each kernel: the coverage
#                 of Nsight Compute's --kernel-id ::regex:.:1)
#   ncu           `ncu --clock-control none --kernel-id ::regex:.:1 --section SourceCounters`
# The verifier's times are the whole command (collection, disassembly, comparison, report).
# Prints a table; writes OUTDIR/verify_overhead.csv, and keeps each default run's report JSON and
# stderr in OUTDIR/NAME.{report.json,err}.
set -uo pipefail
PRED=$(realpath "${1:?usage: verify_overhead_h200.sh PREDICTIONS_DIR OUTDIR [NAME...]}")
OUTDIR=$(mkdir -p "${2:?}" && cd "$2" && pwd)
shift 2
NAMES=("$@")
[ ${#NAMES[@]} -eq 0 ] && NAMES=(gaussian nw lud hotspot BlackScholes transpose matrixMul)
ROOT=$(pwd)
source bench/realcode/realcode_lib.sh
W=${WORK_DIR:-$ROOT/build-realcode}
CL=${BUILD_DIR:-$ROOT/build-gpu}/coalesce-lint
export LD_LIBRARY_PATH=$ROOT/.deps/root/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
CSV=$OUTDIR/verify_overhead.csv
echo "program,launches,measured_config,configs_over_cap,measured_first,plain_s,verify_s,verify_first_s,ncu_s,verify_exit,verify_first_exit,ncu_exit" > "$CSV"
now() { echo "$EPOCHREALTIME"; }
# "N of M kernel launches measured ..." from a report: M,N (empty when the report has no such note).
counts() {
  python3 -c "
import json,sys
r=json.load(open(sys.argv[1]))
n=[x for x in r.get('notes',[]) if 'kernel launches measured' in x]
print(n[0].split(' of ')[1].split(' ')[0] + ',' + n[0].split(' ')[0] if n else ',')" "$1" 2> /dev/null || echo ","
}
for name in "${NAMES[@]}"; do
  line=$(realcode_programs | grep "^$name|") || continue
  IFS='|' read -r name tree dir sources flags args <<< "$line"
  exe=$W/bin/$name
  [ -x "$exe" ] || { echo "$name: not built"; continue; }
  a=()
  for x in $args; do [[ $x == @GEN:* ]] && x=$W/inputs/${x##*:}; a+=("$x"); done
  cd "$REALCODE/$tree/$dir" || continue
  t0=$(now); timeout 300 "$exe" "${a[@]}" > /dev/null 2>&1; t1=$(now)
  timeout 300 "$CL" verify --timeout 290 --predictions "$PRED/$name.json" --allow-not-found --format json \
    -o "$OUTDIR/$name.report.json" -- "$exe" "${a[@]}" > /dev/null 2> "$OUTDIR/$name.err"; rv=$?; t2=$(now)
  timeout 300 "$CL" verify --timeout 290 --sample first --predictions "$PRED/$name.json" --allow-not-found \
    --format json -o "$W/overhead_first_$name.json" -- "$exe" "${a[@]}" > /dev/null 2>&1; rf=$?; t3=$(now)
  timeout 300 ncu --clock-control none --kernel-id ::regex:.:1 --section SourceCounters -f \
    -o "$W/overhead_$name" "$exe" "${a[@]}" > "$W/overhead_$name.ncu.log" 2>&1; rn=$?; t4=$(now)
  cd "$ROOT" || exit 2
  c=$(counts "$OUTDIR/$name.report.json")
  f=$(counts "$W/overhead_first_$name.json")
  over=$(python3 -c "
import json,sys
n=[x for x in json.load(open(sys.argv[1])).get('notes',[]) if 'past the per-kernel cap' in x]
print(n[0].split('every launch of ')[1].split(' ')[0] if n else 0)" "$OUTDIR/$name.report.json" 2> /dev/null || echo "")
  awk -v n="$name" -v c="$c" -v o="$over" -v f="${f#*,}" -v a="$t0" -v b="$t1" -v d="$t2" -v e="$t3" -v g="$t4" \
    -v rv="$rv" -v rf="$rf" -v rn="$rn" \
    'BEGIN { printf "%s,%s,%s,%s,%.2f,%.2f,%.2f,%.2f,%s,%s,%s\n", n, c, o, f, b - a, d - b, e - d, g - e, rv, rf, rn }' >> "$CSV"
done
cat "$CSV"
