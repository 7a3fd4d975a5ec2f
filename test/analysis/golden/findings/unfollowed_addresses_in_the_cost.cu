// An address the analysis cannot follow (a hash of the thread index) moves memory all the same:
// it counts in its kernel's time at the least it moves, as a gather does (docs/findings.md,
// "Cost", session 13). Until session 13 it moved nothing, and a same-word shared atomic run
// once per thread before a loop of such loads and stores was most of its kernel's time (the
// CUDA samples' simpleAttributes, `atomicExch(&hit, 0)`: 19 %; blind panel 11: noise). A shared
// atomic one lane runs is no finding. Minimal kernel written for this test.
#include <cuda_runtime.h>
#include <cstdlib>

__global__ void hashedPasses(int* data, int n, int passes, int* done) {
  __shared__ unsigned int hit;
  __shared__ unsigned int flag;
  atomicExch(&hit, 0);  // finding: shared-bank-conflict=note
  if (threadIdx.x == 0) atomicExch(&flag, 1);  // finding: none
  __syncthreads();
  unsigned int r = blockIdx.x * blockDim.x + threadIdx.x;
  for (int p = 0; p < passes; ++p) {
    r ^= r << 13;
    r ^= r >> 17;
    r ^= r << 5;
    data[r % n] += 1;  // finding: none
  }
  if (threadIdx.x == 0) done[blockIdx.x] = hit + flag;  // finding: none
}

int main(int argc, char** argv) {
  const int n = atoi(argv[1]);
  int *data, *done;
  cudaMalloc(&data, n * sizeof(int));
  cudaMalloc(&done, 4096 * sizeof(int));
  hashedPasses<<<4096, 256>>>(data, n, atoi(argv[2]), done);
  cudaDeviceSynchronize();
  return 0;
}
