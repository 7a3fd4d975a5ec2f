#!/usr/bin/env bash
# The analysis of every program of bench/realcode/programs.txt, one predictions JSON each.
#   bench/realcode/predict.sh COALESCE_LINT OUTDIR      (from the repository root, after stage_sources.sh)
# PREDICT_ARGS: more options for each program's run (realcode_recorded.py passes --launch-info).
# Paths in the JSON are relative to the repository root, as nvcc sees them on the GPU machine.
set -uo pipefail
CL=$(realpath "${1:?usage: predict.sh COALESCE_LINT OUTDIR}")
OUT=${2:?}
mkdir -p "$OUT"
source bench/realcode/realcode_lib.sh
realcode_programs | while IFS='|' read -r name tree dir sources flags args; do
  cus=()
  for s in $sources; do case $s in *.cu) cus+=("$REALCODE/$tree/$dir/$s") ;; esac; done
  analysis_flags=()  # the program's -I and -D flags (not its libraries)
  for f in $flags; do case $f in -I* | -D*) analysis_flags+=("$f") ;; esac; done
  # shellcheck disable=SC2046
  # shellcheck disable=SC2086
  "$CL" --format=json -q -o "$OUT/$name.json" ${PREDICT_ARGS:-} "${cus[@]}" -- $(realcode_includes "$tree" "$dir") "${analysis_flags[@]}" \
    2> "$OUT/$name.stderr"
  echo "$name: exit $? ($(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(len(d['accesses']), 'accesses', len(d['kernels']), 'kernels')" "$OUT/$name.json" 2>/dev/null))"
done
