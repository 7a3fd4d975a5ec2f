// The absolute floor (MinWastePerRun, docs/findings.md "Levels") on a Blelloch scan's two sweeps
// (Learn CUDA Programming's scan_v2, panel 12: judged noise, "a single 512-thread block,
// launched once, in a validation demo"). The up-sweep's `while (offset < length)` is counted
// from the launch's length; the down-sweep starts from the offset the up-sweep ended with (a
// loop's exit value, loop_summary.cpp), known as soon as the up-sweep's bounds are. Until
// session 16 that start did not count as the program's own (record_builder.cpp,
// requestsShown), so the down-sweep stayed a warning beside an up-sweep that was a note. Both
// conflicts are true and waste under a microsecond per run: notes. Minimal kernel written for
// this test.
#include <cuda_runtime.h>

#define SCAN_BLOCK 512

__global__ void scanFixedLength(float* out, const float* in, int length) {
  extern __shared__ float buffer[];
  const int tid = threadIdx.x;
  buffer[tid] = in[blockIdx.x * 2 * SCAN_BLOCK + tid];  // finding: none
  buffer[tid + SCAN_BLOCK] = in[blockIdx.x * 2 * SCAN_BLOCK + tid + SCAN_BLOCK];  // finding: none
  int offset = 1;
  while (offset < length) {
    __syncthreads();
    const int a = offset * (2 * tid + 1) - 1;
    const int b = offset * (2 * tid + 2) - 1;
    if (a >= 0 && b < 2 * SCAN_BLOCK) buffer[b] += buffer[a];  // finding: shared-bank-conflict=note
    offset <<= 1;
  }
  offset >>= 1;
  while (offset > 0) {
    __syncthreads();
    const int a = offset * (2 * tid + 2) - 1;
    const int b = offset * (2 * tid + 3) - 1;
    if (a >= 0 && b < 2 * SCAN_BLOCK) buffer[b] += buffer[a];  // finding: shared-bank-conflict=note
    offset >>= 1;
  }
  __syncthreads();
  out[blockIdx.x * 2 * SCAN_BLOCK + tid] = buffer[tid];  // finding: none
  out[blockIdx.x * 2 * SCAN_BLOCK + tid + SCAN_BLOCK] = buffer[tid + SCAN_BLOCK];  // finding: none
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 2 * SCAN_BLOCK * sizeof(float));
  cudaMalloc(&out, 2 * SCAN_BLOCK * sizeof(float));
  scanFixedLength<<<1, SCAN_BLOCK, 2 * SCAN_BLOCK * sizeof(float)>>>(out, in, 2 * SCAN_BLOCK);
  cudaDeviceSynchronize();
  return 0;
}
