// The blocks of a launch that run an access, counted the same way for every access
// (docs/findings.md, "Cost", session 13): over the grid the cost counts, for every access whose
// guards name the block index, whatever the representative block does. Until session 13 they
// were counted only where block 1 ran nothing, so the same guard `point < n` let 16 of 1,024
// blocks run over a 2D block index and all 1,024 over a 1D one, and a one-off transpose weighed
// most of the program beside the kernel the host loops over (Rodinia kmeans' `invert_mapping`
// beside `kmeansPoint`; blind panel 11: noise). Minimal kernels written for this test.
#include <cuda_runtime.h>
#include <cstdlib>

// Launched once, over a 1D index: strided loads that waste 28 of 32 sectors. `i < n` (n at
// its default 4096) lets the first 16 of the 1,024 blocks counted run.
__global__ void flipOnce(const float* __restrict__ aos, float* __restrict__ soa, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int f = 0; f < 16; ++f) soa[f * n + i] = aos[i * 16 + f];  // finding: uncoalesced-global-access=note
  }
}

// Launched 1000 times, over a point index written from a 2D block index: the same 16 blocks
// run, though the representative block (1, 1) does not.
__global__ void assignPoints(const float* __restrict__ soa, int* __restrict__ owner, int n) {
  const int block = gridDim.x * blockIdx.y + blockIdx.x;
  const int point = block * blockDim.x + threadIdx.x;
  if (point < n) {
    float best = 0;
    for (int f = 0; f < 16; ++f) best += soa[f * n + point];  // finding: none
    owner[point] = static_cast<int>(best);  // finding: none
  }
}

int main(int argc, char** argv) {
  const int n = atoi(argv[1]);
  int side = 0;
  cudaDeviceGetAttribute(&side, cudaDevAttrMultiProcessorCount, 0);
  float *aos, *soa;
  int* owner;
  cudaMalloc(&aos, 16 * n * sizeof(float));
  cudaMalloc(&soa, 16 * n * sizeof(float));
  cudaMalloc(&owner, n * sizeof(int));
  flipOnce<<<side, 256>>>(aos, soa, n);
  for (int it = 0; it < 1000; ++it) assignPoints<<<dim3(side, side), 256>>>(soa, owner, n);
  cudaDeviceSynchronize();
  return 0;
}
