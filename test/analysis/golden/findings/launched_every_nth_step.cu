// A kernel the host launches only in some iterations of its loop: `if (step % k == 0)` (a loss
// printed every `monitoring_step` steps, panel 12's Learn-CUDA-Programming ann), `!(step % k)`,
// and the else arm of such a test. Each runs T / k times per run (T - T / k for the else arm),
// not T (lib/analysis/src/launch_repeats.cpp, everyNth). Minimal kernels written for this test.
#include <cuda_runtime.h>

__global__ void trainStep(float* w, const float* g) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  w[i] -= g[i];  // finding: none
}

__global__ void lossEvery(const float* w, float* loss) { loss[threadIdx.x] = w[threadIdx.x]; }  // finding: none
__global__ void checkEvery(const float* w, float* out) { out[threadIdx.x] = w[threadIdx.x]; }  // finding: none
__global__ void otherSteps(const float* w, float* out) { out[threadIdx.x] = w[threadIdx.x]; }  // finding: none
// `step % 3 == n`, n not a constant: every step, as before.
__global__ void unknownRemainder(const float* w, float* out) { out[threadIdx.x] = w[threadIdx.x]; }  // finding: none

int main(int argc, char** argv) {
  const int monitoring_step = 10;
  const int n = argc;
  float *w, *g, *out;
  cudaMalloc(&w, 1024 * sizeof(float));
  cudaMalloc(&g, 1024 * sizeof(float));
  cudaMalloc(&out, 1024 * sizeof(float));
  for (int step = 0; step < 1000; ++step) {
    trainStep<<<4, 256>>>(w, g);
    if (step % monitoring_step == 0) lossEvery<<<1, 32>>>(w, out);
    if (!(step % 4)) {
      checkEvery<<<1, 32>>>(w, out);
    } else {
      otherSteps<<<1, 32>>>(w, out);
    }
    if (step % 3 == n) unknownRemainder<<<1, 32>>>(w, out);
  }
  cudaDeviceSynchronize();
  return 0;
}
