// A guard that compares a thread's value with one value every lane of the warp shares, which
// the analysis cannot know (a length loaded at the block's index): `if (u == U - 1)` with `u =
// threadIdx.x` lets through the one lane whose index is that value, not every lane
// (lib/analysis/src/guard_masks.cpp, KeptGuard::threadSide). warp-transducer's
// compute_betas_kernel stores `betas[(t+1) * maxU + U-1]` under `u == U-1`; the figures assumed
// every lane passes, "32 sectors per request", judged false by blind panel 33 (one thread per
// block runs it). Lanes that share the side's value pass together (`threadIdx.x / 4 == box`:
// the four lanes of one box). Minimal kernels written for this test.
#include <cuda_runtime.h>

__global__ void lastLabel(float* betas, const int* labelLengths, int maxU) {
  const int u = threadIdx.x;
  const int U = labelLengths[blockIdx.x];
  if (u == U - 1) betas[blockIdx.x * 4096 + u * 64] = 1.0f;  // finding: none
}

__global__ void oneBox(float* out, const float* boxes, const int* pick) {
  const int box = pick[blockIdx.x];
  if (threadIdx.x / 4 == box) out[blockIdx.x * 1024 + threadIdx.x * 16] = boxes[blockIdx.x * 4 + threadIdx.x % 4];  // finding: none
}

int main() {
  float *b, *o;
  int* l;
  cudaMalloc(&b, 1 << 26);
  cudaMalloc(&o, 1 << 26);
  cudaMalloc(&l, 1 << 20);
  for (int i = 0; i < 1000; ++i) {
    lastLabel<<<4096, 256>>>(b, l, 64);
    oneBox<<<4096, 256>>>(o, b, l);
  }
  cudaDeviceSynchronize();
  return 0;
}
