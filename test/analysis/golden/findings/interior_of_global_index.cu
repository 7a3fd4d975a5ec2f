// An interior branch over coordinates the thread's global index gives (`y = tid / nx; if (0 <
// y && y < ny - 1)`): the first blocks hold the image's first row and the last block its last
// one, so the block that stands for the grid (block 1), block 0 and the last block all skip it,
// and the access was reported as run by no thread. It runs in the grid's middle blocks, whose
// figures it now gets (lib/analysis/src/lane_function.cpp, evaluateLanes; NiftyReg's
// Jacobian kernels, blind panel 34). The border branch's four stores fill each thread's 16
// bytes together: judged as one group in block 0, where they run (access_groups.cpp,
// evaluateGroup's firstBlock). Minimal kernel written for this test.
#include <cuda_runtime.h>

__device__ inline void divide(const int num, const int denom, int& quot, int& rem) {
  quot = num / denom;
  rem = num % denom;
}

__global__ void interior(float* out, float* border, int nx, int ny) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int y = 0, x;
  divide(tid, nx, y, x);
  if (0 < x && x < nx - 1 && 0 < y && y < ny - 1) {
    out[tid * 2] = 1.f;  // finding: uncoalesced-global-access=warning
  } else {
    int index = tid * 4;
    border[index++] = 1.f;  // finding: none
    border[index++] = 0.f;  // finding: none
    border[index++] = 0.f;  // finding: none
    border[index] = 1.f;  // finding: none
  }
}

int main() {
  float *a, *b;
  cudaMalloc(&a, 1 << 26);
  cudaMalloc(&b, 1 << 26);
  for (int i = 0; i < 100; ++i) interior<<<1024, 256>>>(a, b, 512, 512);
  cudaDeviceSynchronize();
  return 0;
}
