// Negative strides and interleaved halves: in[n - 1 - 2 * i], a warp reading its 32 floats
// backwards (base + 31 - lane), columns walked backwards ((31 - lane) * 32), the interleaved
// permutation lane < 16 ? 2 * lane : 2 * (lane - 16) + 1 (load and store), and a negative-stride store.
// Launches: 64 x 256, 128 x 128, 32 x 64, 256 x 32.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void negStride2(const float* __restrict__ in, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[n - 1 - 2 * i];
  out[i] = v;
}

__global__ void warpBackwards(const float* __restrict__ in, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int base = i - lane;
  float v = in[base + 31 - lane];
  float w = in[base * 32 + (31 - lane) * 32];
  out[i] = v + w;
}

__global__ void interleaveHalves(const float* __restrict__ in, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int base = i - lane;
  int j = lane < 16 ? 2 * lane : 2 * (lane - 16) + 1;
  float v = in[base + j];
  out[base + j] = v * 0.5f;
}

__global__ void negStrideStore(const float* __restrict__ in, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  out[n - 1 - 4 * i] = v;
  out[n - 32 * (i + 1)] = v;
}

int main() {
  const int n = 1 << 20;
  float *in, *out;
  CK(cudaMalloc(&in, n * sizeof(float)));
  CK(cudaMalloc(&out, n * sizeof(float)));
  CK(cudaMemset(in, 0, n * sizeof(float)));

  negStride2<<<64, 256>>>(in, out, n);      // 2 * 16383 < n
  warpBackwards<<<128, 128>>>(in, out);     // base * 32 + 31 * 32 < 16384 * 32 + 1024 <= n
  interleaveHalves<<<32, 64>>>(in, out);
  negStrideStore<<<256, 32>>>(in, out, n);  // 32 * 8192 = n
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(in)); CK(cudaFree(out));
  return 0;
}
