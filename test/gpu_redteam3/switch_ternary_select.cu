// A switch on a kernel argument selecting the stride, a switch on lane & 3 with one load per
// case, ternaries selecting between two arrays per lane (lane < 16 ? a[i] : b[i]) and between
// two index formulas. Launches: 64 x 256 (mode 2), 128 x 128, 32 x dim3(32, 8), 96 x 64.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void switchStride(const float* __restrict__ in, float* __restrict__ out, int mode) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int s;
  switch (mode) {
    case 0: s = 1; break;
    case 1: s = 2; break;
    case 2: s = 8; break;
    default: s = 32; break;
  }
  float v = in[i * s];
  out[i] = v;
}

__global__ void switchLane(const float* __restrict__ in, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v;
  switch (threadIdx.x & 3) {
    case 0: v = in[i]; break;
    case 1: v = in[i + 4096]; break;
    case 2: v = in[(i >> 2) * 32]; break;
    default: v = in[0]; break;
  }
  out[i] = v;
}

__global__ void ternaryArrays(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ out) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  int i = blockIdx.x * (blockDim.x * blockDim.y) + t;
  int lane = threadIdx.x & 31;
  float v = lane < 16 ? a[i] : b[i];
  out[i] = v;
}

__global__ void ternaryFormula(const float* __restrict__ in, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int j = (lane & 1) ? (i - 1) : (i + 1);
  float v = in[j + 32];
  int k = (blockIdx.x & 1) ? i : 2 * i;
  out[k] = v;
}

int main() {
  const int n = 1 << 20;
  float *a, *b, *out;
  CK(cudaMalloc(&a, n * sizeof(float)));
  CK(cudaMalloc(&b, n * sizeof(float)));
  CK(cudaMalloc(&out, n * sizeof(float)));
  CK(cudaMemset(a, 0, n * sizeof(float)));
  CK(cudaMemset(b, 0, n * sizeof(float)));

  int mode = 2;
  switchStride<<<64, 256>>>(a, out, mode);     // 16384 * 8 < n
  switchLane<<<128, 128>>>(a, out);            // max (16383 >> 2) * 32 < n
  dim3 blk(32, 8);
  ternaryArrays<<<32, blk>>>(a, b, out);
  ternaryFormula<<<96, 64>>>(a, out);          // j + 32 >= 31; k < 2 * 6144
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(a)); CK(cudaFree(b)); CK(cudaFree(out));
  return 0;
}
