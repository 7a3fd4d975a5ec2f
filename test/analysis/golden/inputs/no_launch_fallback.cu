// no_launch_fallback.cu: kernels with no launch and no __launch_bounds__: the block is 1D
// and blockDim.x an unknown multiple of 32.
#include <cuda_runtime.h>

__global__ void copyNoLaunch(const float* __restrict__ in, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00
}

// Lane stride blockDim.x floats: at least 128 bytes, so every lane in its own sector.
__global__ void transposedByBlockDim(const float* __restrict__ in, float* __restrict__ out) {
  float v = in[threadIdx.x * blockDim.x + blockIdx.x];  // expect: global load sectors=32 ideal=4 eta=0.12
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;  // expect: global store sectors=4 ideal=4 eta=1.00
}

// Two elements per thread, blockDim.x apart.
__global__ void twoPerThread(const float* __restrict__ in, float* __restrict__ out) {
  int base = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  out[base] = in[base] + in[base + blockDim.x];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00
}

// Warp partials: lane 0 of each warp writes its warp's slot, then the first warp reads them.
__global__ void warpPartials(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float partial[32];
  int lane = threadIdx.x & 31;
  int warp = threadIdx.x >> 5;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];  // expect: global load sectors=4 ideal=4 eta=1.00
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  if (lane == 0) partial[warp] = v;  // expect: shared store wavefronts=1 ideal=1 degree=1
  __syncthreads();
  if (warp == 0) {
    float t = (lane < blockDim.x / 32) ? partial[lane] : 0.0f;  // expect: shared load wavefronts=1 ideal=1 degree=1
    if (lane == 0) out[blockIdx.x] = t;  // expect: global store sectors=1 ideal=1 eta=1.00
  }
}

// A 64-bit access per lane, no launch.
__global__ void doubleNoLaunch(const double* __restrict__ in, double* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 0.5 * in[i];  // expect: global store sectors=8 ideal=8 eta=1.00 ; global load sectors=8 ideal=8 eta=1.00
}
