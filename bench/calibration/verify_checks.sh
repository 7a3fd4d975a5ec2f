#!/usr/bin/env bash
# The verifier end to end on a GPU machine, after run_calibration.sh built it:
# test/verify/data/programs/verify_demo.cu through `coalesce-lint verify` (FILES mode
# and `-- ./app` mode), then every failure mode the verifier must report in one line.
#
#   bench/calibration/verify_checks.sh BUILD_DIR OUTDIR
set -uo pipefail
B=$(cd "${1:?usage: verify_checks.sh BUILD_DIR OUTDIR}" && pwd)
W=${2:?}/verify
mkdir -p "$W"
CL=$B/coalesce-lint
INJ=$B/verify/libcoalesce_verify_inject.so
P=test/verify/data/programs
LOG=$W/checks.txt
: > "$LOG"
check() {  # title, command...
  local title=$1; shift
  { echo "### $title"; echo "\$ $*"; } >> "$LOG"
  "$@" > "$W/out.txt" 2> "$W/err.txt"
  local rc=$?
  { cat "$W/out.txt"; sed 's/^/[stderr] /' "$W/err.txt"; echo "exit code: $rc"; echo; } >> "$LOG"
  echo "== $title: exit $rc"
}

check "files mode: build verify_demo.cu with nvcc, run it under the collector, compare" \
  "$CL" verify --predictions $P/verify_demo.predictions.json --keep "$W/demo" $P/verify_demo.cu
"$CL" verify --predictions $P/verify_demo.predictions.json --format json -o "$W/demo_report.json" \
  --measurements "$W/demo/measurements_0.json" --sass "$W"/demo/cubins_0/*.sass > /dev/null 2>&1
check "app mode: the same binary, unmodified, after --" \
  "$CL" verify --predictions $P/verify_demo.predictions.json -- "$W/demo/verify_demo_0"
sed 's/"sectors_per_request": 8.0/"sectors_per_request": 4.0/' $P/verify_demo.predictions.json > "$W/wrong.json"
check "a wrong prediction (stride-2 load predicted at 4 sectors)" \
  "$CL" verify --predictions "$W/wrong.json" --allow-not-found $P/verify_demo.cu
check "the application crashes (SIGSEGV after its kernel)" \
  "$CL" verify --predictions $P/crash.predictions.json $P/crash.cu
check "the application never returns (--timeout 5)" \
  "$CL" verify --predictions $P/hang.predictions.json --timeout 5 $P/hang.cu
check "no GPU visible (CUDA_VISIBLE_DEVICES=)" \
  env CUDA_VISIBLE_DEVICES= "$CL" verify --predictions $P/verify_demo.predictions.json $P/verify_demo.cu
check "injection library missing (--inject /nonexistent.so)" \
  "$CL" verify --predictions $P/verify_demo.predictions.json --inject /nonexistent.so $P/verify_demo.cu
check "nvcc fails (a file that does not compile)" \
  bash -c "echo 'int main() { return x; }' > /tmp/bad.cu && '$CL' verify --predictions $P/crash.predictions.json /tmp/bad.cu"

# Not root: counters may be restricted to administrators (ERR_NVGPUCTRPERM).
NP=/tmp/coalesce-nonroot
rm -rf $NP && mkdir -p $NP && cp "$CL" "$INJ" $P/verify_demo.cu \
  $P/verify_demo.predictions.json $NP/ && chmod -R a+rwX $NP
if command -v setpriv > /dev/null; then
  check "as an unprivileged user (nobody)" \
    setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp TMPDIR=/tmp \
    $NP/coalesce-lint verify --predictions $NP/verify_demo.predictions.json --allow-not-found $NP/verify_demo.cu
fi

# CUPTI missing: hide libcupti for one run (this machine is discarded afterwards).
CUPTI=$(ldd "$INJ" | awk '/libcupti/ {print $3}')
if [ -n "$CUPTI" ] && [ -f "$CUPTI" ]; then
  mkdir -p /tmp/hidden-cupti && mv "$CUPTI" /tmp/hidden-cupti/
  check "CUPTI missing (libcupti moved away for this run)" \
    "$CL" verify --predictions $P/verify_demo.predictions.json $P/verify_demo.cu
  mv /tmp/hidden-cupti/"$(basename "$CUPTI")" "$CUPTI"
fi

# What CI needs from the demo: measurements and listings (the binaries stay here).
mkdir -p "$W/recorded"
cp "$W/demo/measurements_0.json" "$W/recorded/verify_demo.measurements.json"
cat "$W"/demo/cubins_0/*.sass | grep -v ' NOP' > "$W/recorded/verify_demo.sass.txt"
rm -rf "$W/demo" "$W/out.txt" "$W/err.txt" "$W/wrong.json"
