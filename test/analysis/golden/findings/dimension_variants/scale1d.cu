// Two programs in one folder whose names differ in a number written against a letter (1d, 3d):
// a dimension, not a step of a series (lib/report/src/variant_level.cpp, numberAgainstLetter).
// scale3d.cu does the same job without the strided load, yet this one keeps its warning.
#include <cuda_runtime.h>

__global__ void scaleRows(const float* __restrict__ in, float* __restrict__ out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2.0f * in[4 * i];  // finding: uncoalesced-global-access=warning
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 4 * (1 << 20) * sizeof(float));
  cudaMalloc(&out, (1 << 20) * sizeof(float));
  for (int step = 0; step < 100; ++step) scaleRows<<<(1 << 20) / 256, 256>>>(in, out);
  cudaDeviceSynchronize();
  return 0;
}
