// Grid-stride loops with a 1D grid but a 2D block: t = threadIdx.y * blockDim.x + threadIdx.x
// with blocks 32 x 4 and 8 x 16 (warps span several y), the swapped linearisation
// threadIdx.x * blockDim.y + threadIdx.y, and rows picked by threadIdx.y (row * ld + x).
// Launches: 128 x dim3(32, 4), 64 x dim3(8, 16), 128 x dim3(32, 4), 32 x dim3(32, 8).
// (gsWhile8x16 uses the linear formula with an 8 x 16 block; gsSwapped runs with 32 x 4.)
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void gsLinear(const float* __restrict__ in, float* __restrict__ out, int n) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  int per = blockDim.x * blockDim.y;
  int stride = gridDim.x * per;
  for (int i = blockIdx.x * per + t; i < n; i += stride) {
    float v = in[i];
    out[i] = v + 1.0f;
  }
}

__global__ void gsSwapped(const float* __restrict__ in, float* __restrict__ out, int n) {
  int t = threadIdx.x * blockDim.y + threadIdx.y;
  int per = blockDim.x * blockDim.y;
  for (int i = blockIdx.x * per + t; i < n; i += gridDim.x * per) {
    float v = in[i];
    out[i] = v * 2.0f;
  }
}

__global__ void gsWhile8x16(const float* __restrict__ in, float* __restrict__ out, int n) {
  int per = blockDim.x * blockDim.y;
  int i = blockIdx.x * per + threadIdx.y * blockDim.x + threadIdx.x;
  while (i < n) {
    float v = in[i];
    out[i] = v - 1.0f;
    i += gridDim.x * per;
  }
}

__global__ void rowsByY(const float* __restrict__ in, float* __restrict__ out, int ld, int rows) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  for (int r = threadIdx.y; r < rows; r += blockDim.y) {
    float v = in[r * ld + x];
    out[x * rows + r] = v;
  }
}

int main() {
  const int n = 1 << 20;
  float *in, *out;
  CK(cudaMalloc(&in, n * sizeof(float)));
  CK(cudaMalloc(&out, n * sizeof(float)));
  CK(cudaMemset(in, 0, n * sizeof(float)));

  dim3 b32x4(32, 4);
  gsLinear<<<128, b32x4>>>(in, out, n);
  gsWhile8x16<<<64, dim3(8, 16)>>>(in, out, n);
  gsSwapped<<<128, b32x4>>>(in, out, n / 2);
  int ld = 1024, rows = 64;                       // in: 64 x 1024; out: 1024 x 64
  rowsByY<<<32, dim3(32, 8)>>>(in, out, ld, rows);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(in)); CK(cudaFree(out));
  return 0;
}
