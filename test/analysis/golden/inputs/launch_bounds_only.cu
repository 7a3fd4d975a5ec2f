// launch_bounds_only.cu: no launch in the file; the block size comes from
// __launch_bounds__ (a literal, a constexpr, a template argument of an explicit
// instantiation).
#include <cuda_runtime.h>

constexpr int kThreads = 96;

// 128 threads. Shared s[tid * 4]: a warp's words are 4 apart, 8 banks, 4 words each.
__global__ void __launch_bounds__(128) stride4Shared(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float s[4 * 128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x * 4] = in[i];  // expect: shared store wavefronts=4 ideal=1 degree=4 ; global load sectors=4 ideal=4 eta=1.00
  __syncthreads();
  out[i] = s[(threadIdx.x * 4 + 4) % (4 * 128)];  // expect: global store sectors=4 ideal=4 eta=1.00 ; shared load wavefronts=4 ideal=1 degree=4
}

// 96 threads = 3 warps; the first 80 threads work: warps 0 and 1 full, warp 2 half.
__global__ void __launch_bounds__(kThreads, 4) firstEighty(const float* __restrict__ in, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x < 80) out[i] = in[i] + 1.0f;  // expect: global store sectors=3.33 ideal=3.33 eta=1.00 ; global load sectors=3.33 ideal=3.33 eta=1.00
}

// Blocks of BS threads each reduce 2 * BS elements.
template <int BS>
__global__ void __launch_bounds__(BS) pairSum(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float s[BS];
  int i = blockIdx.x * (2 * BS) + threadIdx.x;
  s[threadIdx.x] = in[i] + in[i + BS];  // expect: shared store wavefronts=1 ideal=1 degree=1 ; global load sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00
  __syncthreads();
  if (threadIdx.x < BS / 2) out[blockIdx.x * (BS / 2) + threadIdx.x] = s[2 * threadIdx.x] + s[2 * threadIdx.x + 1];  // expect: global store sectors=4 ideal=4 eta=1.00 ; shared load wavefronts=2 ideal=1 degree=2 ; shared load wavefronts=2 ideal=1 degree=2
}

template __global__ void pairSum<64>(const float* __restrict__, float* __restrict__);
