// shared_reduction_interleaved.cu: block sum in shared memory with interleaved addressing,
// index = 2 * s * tid: at step s the active lanes hit words 2s apart, so the conflict grows
// with s (2-way at s = 1, 4-way at s = 2, 8-way from s = 4 on while a warp still holds 8 or
// more active lanes). Figures are the mean over the 8 steps, weighted by the warp requests
// that have at least one active lane (12 requests per block, 47 wavefronts for 12 ideal).
// Seed 002, "Deux pieges classiques ... l'indexation par pas (stride)"; seed 000 §2.3
// (strided shared access, s[2t], s[4t]).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                  \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

constexpr int BLOCK = 256;
constexpr int N = 256 * BLOCK;

__global__ void reduceInterleaved(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (i < n) ? in[i] : 0.0f;  // expect: global load sectors=4 ideal=4 eta=1.00
  sdata[tid] = v;  // expect: shared store wavefronts=1 ideal=1 degree=1
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x) sdata[index] += sdata[index + s];  // expect: shared load wavefronts=3.92 ideal=1 degree=3.92 !shared-bank-conflict ; shared load wavefronts=3.92 ideal=1 degree=3.92 !shared-bank-conflict ; shared store wavefronts=3.92 ideal=1 degree=3.92 !shared-bank-conflict
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];  // expect: shared load wavefronts=1 ideal=1 degree=1 ; global store sectors=1 ideal=1 eta=1.00
}

int main() {
  float *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, (N / BLOCK) * sizeof(float)));
  CUDA_CHECK(cudaMemset(in, 0, N * sizeof(float)));

  for (int step = 0; step < 1000; ++step) reduceInterleaved<<<256, 256>>>(in, out, N);  // a program's steps: once, it wastes less than a launch costs (MinWastePerRun)
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("shared_reduction_interleaved: ok\n");
  return 0;
}
