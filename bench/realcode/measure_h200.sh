#!/usr/bin/env bash
# The real-code ground truth (issue #13) on a GPU machine: builds the verifier (no LLVM), builds
# every program of bench/realcode/programs.txt with nvcc -lineinfo -O2 for the local GPU, runs each
# under `coalesce-lint verify -- PROGRAM ARGS` against its predictions, and packs the annotated
# measurements and reports into OUTDIR/realcode_h200.tar.gz.
#
#   bench/realcode/measure_h200.sh PREDICTIONS_DIR OUTDIR     (repository root; .realcode and .deps carried)
#
# PREDICTIONS_DIR holds NAME.json per program (bench/realcode/predict.sh on a CPU machine).
# SAMPLE=config|all picks the verifier's launch selection; before the set, one program is measured
# both ways and the set falls back to `all` if the per-line figures differ (a check of sampling).
# Work files go to build-realcode/ (kept between calls on a warm machine).
set -uo pipefail
PRED=$(realpath "${1:?usage: measure_h200.sh PREDICTIONS_DIR OUTDIR}")
OUTDIR=$(mkdir -p "${2:?}" && cd "$2" && pwd)
ROOT=$(pwd)
source bench/realcode/realcode_lib.sh
B=${BUILD_DIR:-$ROOT/build-gpu}
W=${WORK_DIR:-$ROOT/build-realcode}
ARCH=${ARCH:-sm_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)}
SAMPLE=${SAMPLE:-config}
mkdir -p "$W/bin" "$W/logs" "$W/inputs" "$W/raw"
LOG=$W/raw/run.log
log() { echo "== [$SECONDS s] $*" | tee -a "$LOG"; }
{ nvidia-smi -L; nvcc --version | tail -2; uname -r; } > "$W/raw/environment.txt" 2>&1

if [ ! -x "$B/coalesce-lint" ]; then
  PREFIX=$ROOT/.deps/root/usr
  cmake -S lib/verify/standalone -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$PREFIX" \
    -Dfmt_DIR="$PREFIX/lib/x86_64-linux-gnu/cmake/fmt" -DCLI11_DIR="$PREFIX/share/cmake/CLI11" \
    -Dnlohmann_json_DIR="$PREFIX/share/cmake/nlohmann_json" > "$W/raw/build_verifier.log" 2>&1 &&
    cmake --build "$B" -j "$(nproc)" >> "$W/raw/build_verifier.log" 2>&1 || { tail -20 "$W/raw/build_verifier.log"; exit 2; }
fi
export LD_LIBRARY_PATH=$ROOT/.deps/root/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
CL=$B/coalesce-lint
log "verifier built; arch $ARCH"

build_one() {
  IFS='|' read -r name tree dir sources flags args <<< "$1"
  [ -x "$W/bin/$name" ] && return 0
  local srcs=()
  for s in $sources; do srcs+=("$REALCODE/$tree/$dir/$s"); done
  # shellcheck disable=SC2046
  nvcc -lineinfo -O2 -arch="$ARCH" -w $(realcode_includes "$tree" "$dir") $flags -o "$W/bin/$name" "${srcs[@]}" \
    > "$W/logs/$name.nvcc.log" 2>&1 || echo "$name: nvcc failed: $(grep -m1 -i error "$W/logs/$name.nvcc.log")"
}
export -f build_one realcode_includes
export W ARCH REALCODE
realcode_programs | xargs -d '\n' -P "$(nproc)" -I{} bash -c 'build_one "$1"' _ {} | tee "$W/raw/build_failures.txt"
log "built $(ls "$W/bin" | wc -l) programs"

# The program's argument list with generated inputs in place.
expand_args() {
  local out=()
  for a in $1; do
    if [[ $a == @GEN:* ]]; then
      IFS=: read -r _ kind file <<< "$a"
      [ -f "$W/inputs/$file" ] || python3 "$ROOT/bench/realcode/make_inputs.py" "$kind" "$W/inputs/$file"
      out+=("$W/inputs/$file")
    else
      out+=("$a")
    fi
  done
  echo "${out[@]}"
}

measure_one() {  # name tree dir args sample keepdir -> exit code; report in keepdir/report.json
  local name=$1 tree=$2 dir=$3 args=$4 sample=$5 keep=$6
  rm -rf "$keep" && mkdir -p "$keep"
  # shellcheck disable=SC2046
  (cd "$REALCODE/$tree/$dir" && timeout 120 "$CL" verify --predictions "$PRED/$name.json" --keep "$keep" \
    --timeout 90 --allow-not-found --sample "$sample" --format json -o "$keep/report.json" \
    -- "$W/bin/$name" $(expand_args "$args")) > "$keep/stdout.txt" 2> "$keep/stderr.txt"
}

# Sampling checked against instrumenting everything, on a program that launches its kernel many times.
CHECK=${CHECK_PROGRAM:-matrixMul}
line=$(realcode_programs | grep "^$CHECK|")
if [ -n "$line" ] && [ -x "$W/bin/$CHECK" ] && [ "$SAMPLE" = config ]; then
  IFS='|' read -r name tree dir sources flags args <<< "$line"
  s0=$SECONDS; measure_one "$name" "$tree" "$dir" "$args" all "$W/check_all"; ra=$?; ta=$((SECONDS - s0))
  s0=$SECONDS; measure_one "$name" "$tree" "$dir" "$args" config "$W/check_config"; rc=$?; tc=$((SECONDS - s0))
  same=$(python3 - "$W/check_all/report.json" "$W/check_config/report.json" << 'PY'
import json, sys
try:
    a, b = (json.load(open(p)) for p in sys.argv[1:3])
except Exception as e:
    print("no", e); sys.exit()
# Per-request figures and verdicts: request counts differ (one launch against all of them).
def figures(r):
    return {(l["file"], l["line"], l["space"], l["kind"]):
            (l["verdict"], l["measured"]["per_request"], l["measured"]["ideal_per_request"]) for l in r["lines"]}
fa, fb = figures(a), figures(b)
print("yes" if fa == fb and fa else "no", len(fa), "lines")
PY
)
  log "sampling check on $CHECK: all exit $ra in ${ta}s, config exit $rc in ${tc}s; same figures: $same"
  [[ $same == yes* ]] || { SAMPLE=all; log "sampling disagreed: measuring the set with --sample all"; }
fi

mkdir -p "$W/keep"
BUDGET_S=${BUDGET_S:-470}  # stop starting programs after this (the rest in a later call)
realcode_programs | while IFS='|' read -r name tree dir sources flags args; do
  [ -x "$W/bin/$name" ] || { log "$name: not built"; continue; }
  [ $SECONDS -lt "$BUDGET_S" ] || { log "$name: out of time, left for a later call"; continue; }
  [ -f "$W/keep/$name/report.json" ] && { log "$name: measured earlier"; continue; }
  s0=$SECONDS
  measure_one "$name" "$tree" "$dir" "$args" "$SAMPLE" "$W/keep/$name"
  r=$?
  log "$name: exit $r in $((SECONDS - s0)) s; $(tail -c 300 "$W/keep/$name/stderr.txt" | tr '\n' ' ')"
done

# Pack: annotated measurements (opcodes and inlined-at chains), reports, logs. No binaries.
rm -rf "$W/pack" && mkdir -p "$W/pack"
for d in "$W"/keep/*/; do
  n=$(basename "$d")
  [ -f "$d/annotated_0.json" ] && cp "$d/annotated_0.json" "$W/pack/measurements_$n.json"
  [ -f "$d/report.json" ] && cp "$d/report.json" "$W/pack/report_$n.json"
  cp "$d/stderr.txt" "$W/pack/stderr_$n.txt" 2> /dev/null
done
cp "$W"/raw/* "$W/pack/"
tar czf "$OUTDIR/realcode_h200.tar.gz" -C "$W" pack
log "packed $(du -h "$OUTDIR/realcode_h200.tar.gz" | cut -f1)"
