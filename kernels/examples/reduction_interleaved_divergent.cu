// reduction_interleaved_divergent.cu: the two block sums of seed 002's reduction section.
//  - reduceInterleaved: interleaved addressing, `if (tid % (2 * s) == 0)`. The active threads
//    are spread over every warp while s < 32 (lanes 2s apart), so the warps split at every
//    step: 47 of the 64 warp requests (8 warps x 8 steps) reaching the branch split. Each
//    active lane reads and writes its own word sdata[tid], and the words of one warp fall in
//    distinct banks: no bank conflict (the conflicts belong to the strided-index variant,
//    index = 2 * s * tid, in shared_reduction_interleaved.cu).
//  - reduceSequential: the fix, sequential addressing, `if (tid < s)` with s halving. The
//    active threads stay contiguous: whole warps drop out, and only warp 0 splits on the five
//    steps with s < 32 (5 of 64 requests, the end of a contiguous range): not reported.
// Both kernels guard `out[blockIdx.x]` with `if (tid == 0)`, which splits warp 0 only.
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

__global__ void reduceInterleaved(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];  // expect: global load sectors=4 ideal=4 eta=1.00 ; shared store wavefronts=1 ideal=1 degree=1
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];  // expect-finding: divergent-branch // expect: shared load wavefronts=1 ideal=1 degree=1 ; shared load wavefronts=1 ideal=1 degree=1 ; shared store wavefronts=1 ideal=1 degree=1
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];  // expect: shared load wavefronts=1 ideal=1 degree=1 ; global store sectors=1 ideal=1 eta=1.00
}

__global__ void reduceSequential(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];  // expect: global load sectors=4 ideal=4 eta=1.00 ; shared store wavefronts=1 ideal=1 degree=1
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];  // expect: shared load wavefronts=1 ideal=1 degree=1 ; shared load wavefronts=1 ideal=1 degree=1 ; shared store wavefronts=1 ideal=1 degree=1
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];  // expect: shared load wavefronts=1 ideal=1 degree=1 ; global store sectors=1 ideal=1 eta=1.00
}

int main() {
  float *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, (N / BLOCK) * sizeof(float)));
  CUDA_CHECK(cudaMemset(in, 0, N * sizeof(float)));

  reduceInterleaved<<<256, 256>>>(in, out);
  CUDA_CHECK(cudaGetLastError());
  reduceSequential<<<256, 256>>>(in, out);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("reduction_interleaved_divergent: ok\n");
  return 0;
}
