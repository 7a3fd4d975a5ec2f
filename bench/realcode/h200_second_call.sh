#!/usr/bin/env bash
# The second H200 call of the real-code work (docs/verification/realcode.md): the set again with
# the verifier's default sampling (compared offline, line by line, with the first call's
# every-launch measurements), srad_v2 and simpleCudaGraphs once more without the branch counters
# (both failed with CUPTI_ERROR_UNKNOWN), then bench/verify_overhead_h200.sh.
#   bench/realcode/h200_second_call.sh OUTDIR      (repository root; .realcode and .deps carried)
set -uo pipefail
OUT=${1:?}
ROOT=$PWD
export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
SAMPLE=config CHECK_PROGRAM=none BUDGET_S=${BUDGET_S:-300} bash bench/realcode/measure_h200.sh .realcode/predictions "$OUT/sampled" \
  > "$OUT/measure_sampled.log" 2>&1
grep -E "built|sampling|exit 2|not built|out of time|packed" "$OUT/measure_sampled.log" | cut -c1-220
for p in srad_v2 simpleCudaGraphs; do
  line=$(grep "^$p|" bench/realcode/programs.txt); IFS='|' read -r name tree dir sources flags args <<< "$line"
  for mode in all config; do
    (cd ".realcode/$tree/$dir" && COALESCE_VERIFY_NO_BRANCH_METRICS=1 timeout 120 "$ROOT/build-gpu/coalesce-lint" \
      verify --predictions "$ROOT/.realcode/predictions/$name.json" --allow-not-found --sample "$mode" \
      --keep "$ROOT/build-realcode/nobranch_${name}_$mode" -- "$ROOT/build-realcode/bin/$name" $args) \
      > "$OUT/nobranch_${name}_$mode.txt" 2>&1
    echo "$name no-branch-metrics --sample $mode: exit $? $(tail -2 "$OUT/nobranch_${name}_$mode.txt" | tr '\n' ' ' | cut -c1-200)"
  done
done
tar czf "$OUT/nobranch.tar.gz" build-realcode/nobranch_*/annotated_0.json 2> /dev/null
bash bench/verify_overhead_h200.sh .realcode/predictions "$OUT" gaussian nw lud BlackScholes transpose matrixMul 2>&1 | tail -10
