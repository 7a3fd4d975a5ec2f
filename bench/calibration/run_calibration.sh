#!/usr/bin/env bash
# Calibration on a GPU machine: builds the verifier's collector from source, generates
# the calibration programs, builds them with nvcc (-lineinfo -O2, the local GPU's
# architecture), runs each under libcoalesce_verify_inject.so, dumps their SASS, and
# cross-checks a few kernels with Nsight Compute's SourceCounters.
#
#   bench/calibration/run_calibration.sh OUTDIR
#
# Run from the repository root. Needs CUDA (nvcc, CUPTI, cuobjdump), CMake and ninja;
# fmt, CLI11 and nlohmann/json are taken from .deps/root/usr when present (the GPU
# machine has no package manager). Everything it writes goes to OUTDIR/calibration/.
set -uo pipefail
OUTDIR=${1:?usage: run_calibration.sh OUTDIR}
ROOT=$(pwd)
W=$OUTDIR/calibration
B=$ROOT/build-gpu
mkdir -p "$W"
log() { echo "== $*" | tee -a "$W/run.log"; }

PREFIX=$ROOT/.deps/root/usr
CMAKE_DEPS=()
if [ -d "$PREFIX" ]; then
  CMAKE_DEPS=(-DCMAKE_PREFIX_PATH="$PREFIX"
    -Dfmt_DIR="$PREFIX/lib/x86_64-linux-gnu/cmake/fmt"
    -DCLI11_DIR="$PREFIX/share/cmake/CLI11"
    -Dnlohmann_json_DIR="$PREFIX/share/cmake/nlohmann_json")
fi

{
  nvidia-smi -L; nvcc --version | tail -2; ncu --version | tail -1; uname -r
} > "$W/environment.txt" 2>&1

log "configure + build the verifier"
# The verifier-only project: the rest of the tree may need LLVM, which this machine lacks.
cmake -S "$ROOT/lib/verify/standalone" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  "${CMAKE_DEPS[@]}" > "$W/build.log" 2>&1 &&
  cmake --build "$B" -j 16 >> "$W/build.log" 2>&1 || { log "BUILD FAILED"; tail -40 "$W/build.log"; }
INJECT=$B/verify/libcoalesce_verify_inject.so
[ -f "$INJECT" ] || log "no injection library built"

SM=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d '.')
log "generate (sm_$SM)"
python3 bench/calibration/gen_calibration.py "$W" >> "$W/run.log"
cd "$W"
PROGS="calib_gld calib_gst calib_gmisc calib_shared"
for p in $PROGS; do
  nvcc -arch=sm_$SM -lineinfo -O2 -o $p $p.cu > $p.nvcc.log 2>&1 &
done
wait
for p in $PROGS; do
  [ -x $p ] || { log "nvcc failed for $p"; cat $p.nvcc.log; }
done

log "collect with the injection library"
for p in $PROGS; do
  list=0; [ $p = calib_gld ] && list=1
  start=$SECONDS
  mkdir -p cubins_$p
  COALESCE_VERIFY_OUT=$W/measurements_$p.json COALESCE_VERIFY_CUBIN_DIR=$W/cubins_$p \
    COALESCE_VERIFY_LIST_METRICS=$list CUDA_INJECTION64_PATH=$INJECT \
    timeout 100 ./$p > $p.run.log 2>&1
  rc=$?
  log "$p: rc=$rc $((SECONDS - start))s; $(tail -2 $p.run.log | tr '\n' ' ')"
done

log "SASS listings with inline information (nvdisasm -c -gi), NOPs left out"
for p in $PROGS; do
  for c in cubins_$p/*.cubin; do nvdisasm -c -gi "$c"; done | grep -v ' NOP' > sass_$p.txt
  log "sass_$p.txt: $(wc -l < sass_$p.txt) lines"
done
rm -rf cubins_*

log "Nsight Compute SourceCounters cross-check"
ncu_check() {  # program, kernel regex
  ncu --clock-control none --section SourceCounters -k "regex:$2" -f -o ncu_$1 ./$1 > ncu_$1.log 2>&1
  ncu --import ncu_$1.ncu-rep --page source --csv --print-source sass > ncu_$1.csv 2>> ncu_$1.log
  log "ncu $1: rc=$? $(wc -l < ncu_$1.csv) csv lines"
  rm -f ncu_$1.ncu-rep
}
ncu_check calib_gld '^(gld_f32_s1_o1|gld_f32_s2_o0|gld_f128_s1_o0|gld_u8_s3_o1|gld_f64_s33_o0)$'
ncu_check calib_gmisc '^(gld_f32_pred_t_lt_16|gld_s24_x|gld_2d_16x16_rows_y|gatom_f32_s1_noret|gld_f32_upper_half)$'
ncu_check calib_shared '^(sld_f32_s32_o0|sld_f64_32x33_column|sld_f128_s1_o0|sld_f64_s0_o0|sld_f64_s1_o0|sld_f128_s0_o0|sld_f32_32x32_xor_swizzle_column|sld_f64_f64_mod16|sld_f64_f64_halfpair|sld_f128_f128_mod8|sld_f128_f128_mod16)$'
python3 "$ROOT/bench/calibration/crosscheck_ncu.py" . > crosscheck_ncu.txt; log "crosscheck: $(tail -1 crosscheck_ncu.txt)"
rm -f calib_gld calib_gst calib_gmisc calib_shared
cd "$OUTDIR" && tar czf calibration.tar.gz calibration && log "packed $(du -h calibration.tar.gz | cut -f1)"
