// A thread reading 4 consecutive words of a shared array in a loop of 4: nvcc unrolls the loop
// and merges the loads into one 16-byte LDS.128 when every lane's first word is 16-byte aligned
// (a static __shared__ array; cuda-convnet2's filterActs, whose SASS blind panel 16 read: 60
// LDS.128, no 4-byte load). As four 4-byte loads 16 bytes apart the lanes would conflict 4 ways;
// as one 16-byte load per lane a quarter warp reads 128 contiguous bytes: no conflict (a false
// finding before session 15; lib/analysis/src/compiler_vectorised.cpp). An `extern` array merges
// too: nvcc aligns it to 16 bytes. Measured on the H200 (bench/shared_merge/h200/COMMAND.txt):
// unrolledTileRows and externRows one LDS.128 per warp, 4 wavefronts, no conflict;
// runtimeCountRows, whose trip count is a parameter, LDS.64 pairs with a 2-way conflict, which
// the tool reports as four 4-byte loads 4-way (the warning true, its degree overstated: ptxas's
// unrolling of a loop of unknown count is not modelled). Minimal kernels written for this test.
#include <cuda_runtime.h>

#define WORDS 4

__global__ void unrolledTileRows(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float rows[256 * WORDS];
  const int t = threadIdx.x;
  for (int i = 0; i < WORDS; ++i) rows[t + i * 256] = in[blockIdx.x * 256 * WORDS + t + i * 256];  // finding: none
  __syncthreads();
  float acc = 0;
  for (int i = 0; i < WORDS; ++i) acc += rows[t * WORDS + i];  // finding: none
  out[blockIdx.x * 256 + t] = acc;  // finding: none
}

__global__ void runtimeCountRows(const float* __restrict__ in, float* __restrict__ out, int words) {
  __shared__ float rows[256 * WORDS];
  const int t = threadIdx.x;
  for (int i = 0; i < WORDS; ++i) rows[t + i * 256] = in[blockIdx.x * 256 * WORDS + t + i * 256];  // finding: none
  __syncthreads();
  float acc = 0;
  for (int i = 0; i < words; ++i) acc += rows[WORDS * t + i];  // finding: shared-bank-conflict=warning
  out[blockIdx.x * 256 + t] = acc;  // finding: none
}

__global__ void externRows(const float* __restrict__ in, float* __restrict__ out) {
  extern __shared__ float dynamicRows[];
  const int t = threadIdx.x;
  for (int i = 0; i < WORDS; ++i) dynamicRows[t + i * 256] = in[blockIdx.x * 256 * WORDS + t + i * 256];  // finding: none
  __syncthreads();
  float acc = 0;
  for (int i = 0; i < WORDS; ++i) acc += dynamicRows[t * WORDS + i];  // finding: none
  out[blockIdx.x * 256 + t] = acc;  // finding: none
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 4096 * 256 * WORDS * sizeof(float));
  cudaMalloc(&out, 4096 * 256 * sizeof(float));
  for (int step = 0; step < 1000; ++step) {
    unrolledTileRows<<<4096, 256>>>(in, out);
    runtimeCountRows<<<4096, 256>>>(in, out, WORDS);
    externRows<<<4096, 256, 256 * WORDS * sizeof(float)>>>(in, out);
  }
  cudaDeviceSynchronize();
  return 0;
}
