// Tensor layout permutes with blockIdx.z as the batch index: NCHW -> NHWC naive (threadIdx.x
// over C, the fastest output dim), NHWC -> NCHW naive with separate h (blockIdx.y) and w
// (threadIdx.x, W = 32), and NCHW -> NHWC through a [32][33] shared tile per (C, HW) block.
// N=8, C=64, H=W=32. Launches: (2,128,8)x(32,8), (8,32,8)x(32,8), (32,2,8)x(32,8).
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void nchwToNhwcNaive(const float* __restrict__ in, float* __restrict__ out, int C, int HW) {
  int n = blockIdx.z;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int hw = blockIdx.y * blockDim.y + threadIdx.y;
  float v = in[((size_t)n * C + c) * HW + hw];
  out[((size_t)n * HW + hw) * C + c] = v;
}

__global__ void nhwcToNchwNaive(const float* __restrict__ in, float* __restrict__ out, int C, int H, int W) {
  int n = blockIdx.z;
  int h = blockIdx.y;
  int w = threadIdx.x;
  int c = blockIdx.x * blockDim.y + threadIdx.y;
  float v = in[(((size_t)n * H + h) * W + w) * C + c];
  out[(((size_t)n * C + c) * H + h) * W + w] = v;
}

__global__ void nchwToNhwcTiled(const float* __restrict__ in, float* __restrict__ out, int C, int HW) {
  __shared__ float tile[32][33];
  int n = blockIdx.z;
  const float* src = in + (size_t)n * C * HW;
  float* dst = out + (size_t)n * HW * C;
  int hw = blockIdx.x * 32 + threadIdx.x;
  for (int j = 0; j < 32; j += 8) {
    int c = blockIdx.y * 32 + threadIdx.y + j;
    tile[threadIdx.y + j][threadIdx.x] = src[(size_t)c * HW + hw];
  }
  __syncthreads();
  int c = blockIdx.y * 32 + threadIdx.x;
  for (int j = 0; j < 32; j += 8) {
    int hw2 = blockIdx.x * 32 + threadIdx.y + j;
    dst[(size_t)hw2 * C + c] = tile[threadIdx.x][threadIdx.y + j];
  }
}

int main() {
  constexpr int N = 8, C = 64, H = 32, W = 32, HW = H * W;
  const size_t total = (size_t)N * C * HW;
  float *a, *b;
  CK(cudaMalloc(&a, total * sizeof(float)));
  CK(cudaMalloc(&b, total * sizeof(float)));
  CK(cudaMemset(a, 0, total * sizeof(float)));

  dim3 block(32, 8);
  nchwToNhwcNaive<<<dim3(C / 32, HW / 8, N), block>>>(a, b, C, HW);
  nhwcToNchwNaive<<<dim3(C / 8, H, N), block>>>(b, a, C, H, W);
  dim3 gridT(HW / 32, C / 32, N);
  nchwToNhwcTiled<<<gridT, block>>>(a, b, C, HW);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(a)); CK(cudaFree(b));
  return 0;
}
