// A launch in a host loop that passes the loop's counter: the kernel runs with every value
// the counter takes. The NVIDIA developer blog's coalescing benchmark
// (series/cuda-cpp/coalescing-global) sweeps `stride<<<...>>>(a, s)` over s = 1..32; the
// analysis took the counter's first value, s = 1, the one value of the sweep where the access
// is coalesced, and said nothing (seen in session 26). Each value is now a launch (at most 8,
// evenly spaced: launch_counters.cpp), and the figures are the worst of them, or their mix
// when the runs are known. A launch the loop makes only for some values (`if (s >= 16)`) is
// analysed for those only. Minimal kernels written for this test.
#include <cuda_runtime.h>

__global__ void strided(float* a, int s) {
  const int i = (blockDim.x * blockIdx.x + threadIdx.x) * s;
  a[i] = a[i] + 1;  // finding: uncoalesced-global-access=warning
}

// Rows of 32 floats: every value of the counter keeps each warp on whole sectors.
__global__ void rowShift(float* a, int row) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x + row * 32;
  a[i] = a[i] * 2;  // finding: none
}

// Launched only while `s` is 1: stride 1 is coalesced.
__global__ void firstOnly(float* a, int s) {
  const int i = (blockDim.x * blockIdx.x + threadIdx.x) * s;
  a[i] = a[i] + 3;  // finding: none
}

int main() {
  const int n = 1 << 20;
  float* a;
  cudaMalloc(&a, 33 * n * sizeof(float));
  for (int s = 1; s <= 32; s++) {
    strided<<<n / 256, 256>>>(a, s);
    rowShift<<<n / 256, 256>>>(a, s);
    if (s == 1) firstOnly<<<n / 256, 256>>>(a, s);
  }
  cudaDeviceSynchronize();
  return 0;
}
