# Shared by the bench/realcode scripts: reads programs.txt and gives each program's paths.
#   source bench/realcode/realcode_lib.sh; realcode_programs   -> lines "name|tree|dir|sources|flags|args"
#   realcode_includes TREE DIR                                  -> -I flags for nvcc and the analysis
# Programs live under $REALCODE (default .realcode, ignored by git) as <tree>/<dir>.
REALCODE=${REALCODE:-.realcode}
REALCODE_LIST=${REALCODE_LIST:-bench/realcode/programs.txt}

realcode_programs() {
  grep -v '^#' "$REALCODE_LIST" | grep -v '^[[:space:]]*$' | { if [ -n "${ONLY:-}" ]; then grep -E "^($ONLY)\|"; else cat; fi; }
}

realcode_includes() {
  local tree=$1 dir=$2
  if [ "$tree" = samples ]; then
    echo "-I$REALCODE/samples/Common -I$REALCODE/samples/$dir -I$REALCODE/samples/$dir/inc"
  else
    # Rodinia predates CUDA 12, which removed cudaThreadSynchronize and cudaThreadExit.
    echo "-I$REALCODE/rodinia/common -I$REALCODE/rodinia/cuda/util -I$REALCODE/rodinia/$dir" \
      "-DcudaThreadSynchronize=cudaDeviceSynchronize -DcudaThreadExit=cudaDeviceReset"
  fi
}
