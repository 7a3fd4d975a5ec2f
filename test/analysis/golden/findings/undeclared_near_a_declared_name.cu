// A launch whose block is a name the file never declares (a macro the build defines with -D)
// but that resembles one it does: Clang's typo correction read `BLOCK` as the local `BLOCKS`
// and recovered the launch with it, so the kernel was judged on a 64-thread block stated as
// "from the launch", and its strided load was a warning. Since session 31 the analysis parses
// with -fno-spell-checking (lib/analysis/src/command_line.cpp): the name stays undeclared, the
// launch is not read, and the kernel's findings rest on a guessed block and are notes that say
// so. Minimal kernel written for this test.
#include <cuda_runtime.h>

__global__ void unlaunchedNearMiss(float* d, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i * 2] *= 2.0f;  // finding: uncoalesced-global-access=note
}

int main() {
  const int BLOCKS = 64;
  float* d;
  cudaMalloc(&d, (1 << 22) * sizeof(float));
  for (int k = 0; k < 100; ++k) unlaunchedNearMiss<<<(1 << 20) / BLOCKS, BLOCK>>>(d, 1 << 20);
  cudaDeviceSynchronize();
  return 0;
}
