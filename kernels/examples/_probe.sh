#!/bin/bash
# temporary probe (removed after use)
set -x
which ncu nvcc cuobjdump nvdisasm; ls /usr/local/cuda/bin | head -50
ncu --version
cd kernels/examples
nvcc -arch=sm_90 -lineinfo -O2 -o $OUT/stride2 global_stride2.cu
nvcc -arch=sm_90 -lineinfo -O2 -o $OUT/matmul shared_matmul_tiled.cu
$OUT/stride2
ncu --section SourceCounters -f -o $OUT/stride2 $OUT/stride2 2>&1 | tail -5
ncu --section SourceCounters -f -o $OUT/matmul $OUT/matmul 2>&1 | tail -5
ncu --import $OUT/stride2.ncu-rep --page source --csv --print-source sass 2>&1 | head -30
ncu --import $OUT/stride2.ncu-rep --page source --csv --print-source cuda,sass 2>&1 | head -60
ncu --help | grep -A12 "print-source"
cuobjdump -sass $OUT/matmul | grep -E "LDS|STS|LDG|STG" | head -40
