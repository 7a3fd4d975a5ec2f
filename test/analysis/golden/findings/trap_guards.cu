// Blind panel 7 judged false (docs/precision.md, session 10): llm.c's layernorm_backward_kernel9
// stops with `__trap()` unless C is a multiple of the row chunk, and then breaks out of its
// chunk loop at `global_index >= C`, which, C being such a multiple, every thread of the
// block takes at the same iteration. Read as a plain call, `__trap()` let the analysis go on
// past it with any C, where the break split the warps: two barrier errors. Minimal kernels
// written for this test: the trap ends the thread (lib/analysis/src/interpreter_statements.cpp,
// `leaves`), and a guard known false for the whole block lets no thread reach a barrier
// (lib/analysis/src/lane_function.cpp, evaluateBarrier).
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

__global__ void chunkedRows(float* __restrict__ out, const float4* __restrict__ in, int C, int rows) {
  __shared__ float partial[256];
  const int lane = threadIdx.x % 32;
  const int chunk = 32 * 4;
  const int chunks = (C + chunk - 1) / chunk + 2;
  if (C % chunk != 0) {
    printf("C must be a multiple of %d\n", chunk);
    __trap();
  }
  for (int row = blockIdx.x; row < rows; row += gridDim.x) {
    for (int i = 0; i < chunks; i++) {
      const int column = lane * 4 + i * chunk;
      if (column >= C) break;
      const float4 v = in[(row * C + column) / 4];  // finding: none
      partial[threadIdx.x] = v.x + v.y + v.z + v.w;  // finding: none
      __syncthreads();  // finding: none
      out[row * C / 4 + column / 4] = partial[(threadIdx.x + 32) % 256];  // finding: none
      __syncthreads();  // finding: none
    }
  }
}

// Launched with a C the trap rejects: no thread gets past it, so no barrier is reached.
__global__ void rejected(float* __restrict__ out, int C) {
  __shared__ float s[256];
  if (C % 128 != 0) __trap();
  const int column = (threadIdx.x % 32) * 4;
  if (column < 64) {
    s[threadIdx.x] = 1.0f;
    __syncthreads();  // finding: none
  }
  out[blockIdx.x * 256 + threadIdx.x] = s[threadIdx.x];
}

int main(int argc, char** argv) {
  if (argc < 2) return 1;
  const int C = atoi(argv[1]);
  float* out;
  float4* in;
  cudaMalloc(&out, 1 << 26);
  cudaMalloc(&in, 1 << 26);
  for (int it = 0; it < 10; ++it) chunkedRows<<<128, 256>>>(out, in, C, 4096);
  rejected<<<128, 256>>>(out, 1600);
  cudaDeviceSynchronize();
  return 0;
}
