// Thread coarsening with #pragma unroll over 4 elements: consecutive elements per thread
// (in[4*i + k]), stride-blockDim elements per thread (in[base + k * blockDim.x]), a manually
// unrolled stride-blockDim variant (one load per line), and a grid-stride float4 loop with
// an under-sized grid. Blocks 128/256, launched via a wrapper taking the block size.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int N = 1 << 20;
constexpr int ELEMS = 4;

__global__ void consecutivePerThread(const float* __restrict__ in, float* __restrict__ out) {
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * ELEMS;
#pragma unroll
  for (int k = 0; k < ELEMS; ++k) {
    out[base + k] = 2.0f * in[base + k];
  }
}

__global__ void stridedPerThread(const float* __restrict__ in, float* __restrict__ out) {
  int base = blockIdx.x * blockDim.x * ELEMS + threadIdx.x;
#pragma unroll
  for (int k = 0; k < ELEMS; ++k) {
    out[base + k * blockDim.x] = 2.0f * in[base + k * blockDim.x];
  }
}

__global__ void manualUnroll(const float* __restrict__ in, float* __restrict__ out) {
  int base = blockIdx.x * blockDim.x * 4 + threadIdx.x;
  int s = blockDim.x;
  float v0 = __ldg(in + base);
  float v1 = __ldg(in + base + s);
  float v2 = __ldg(in + base + 2 * s);
  float v3 = __ldg(in + base + 3 * s);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v0 + v1 + v2 + v3;
}

__global__ void gridStrideVec4(const float4* __restrict__ in, float4* __restrict__ out, int n4) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
    float4 v = in[i];
    v.x += 1.0f; v.y += 1.0f; v.z += 1.0f; v.w += 1.0f;
    out[i] = v;
  }
}

void runCoarsened(const float* in, float* out, int n, int block) {
  int grid = n / (block * ELEMS);
  consecutivePerThread<<<grid, block>>>(in, out);
  stridedPerThread<<<grid, block>>>(in, out);
  manualUnroll<<<grid, block>>>(in, out);
}

int main() {
  float *in, *out;
  CK(cudaMalloc(&in, N * sizeof(float)));
  CK(cudaMalloc(&out, N * sizeof(float)));
  CK(cudaMemset(in, 0, N * sizeof(float)));

  runCoarsened(in, out, N, 256);
  gridStrideVec4<<<132, 128>>>(reinterpret_cast<const float4*>(in), reinterpret_cast<float4*>(out), N / 4);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(in));
  CK(cudaFree(out));
  return 0;
}
