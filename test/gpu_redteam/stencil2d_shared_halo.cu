// 2D 5-point stencil on an image with a 1-pixel border (row length 514 floats, so rows are
// not 128-byte aligned): a 16x16 block staging an [18][18] shared tile with edge threads
// loading the halo rows/columns, and a direct-from-global 9-point stencil with block 32x4.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int W = 512, H = 512;
constexpr int P = W + 2;   // padded row length (elements)
constexpr int T = 16;

__global__ void laplaceShared(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float tile[T + 2][T + 2];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * T + tx + 1;   // interior coordinates in the padded image
  int y = blockIdx.y * T + ty + 1;
  tile[ty + 1][tx + 1] = in[y * P + x];
  if (ty == 0) tile[0][tx + 1] = in[(y - 1) * P + x];
  if (ty == T - 1) tile[T + 1][tx + 1] = in[(y + 1) * P + x];
  if (tx == 0) tile[ty + 1][0] = in[y * P + x - 1];
  if (tx == T - 1) tile[ty + 1][T + 1] = in[y * P + x + 1];
  __syncthreads();
  float c = tile[ty + 1][tx + 1];
  float n = tile[ty][tx + 1];
  float s = tile[ty + 2][tx + 1];
  float w = tile[ty + 1][tx];
  float e = tile[ty + 1][tx + 2];
  out[(y - 1) * W + (x - 1)] = n + s + w + e - 4.0f * c;
}

__global__ void box9Global(const float* __restrict__ in, float* __restrict__ out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x + 1;
  int y = blockIdx.y * blockDim.y + threadIdx.y + 1;
  float acc = 0.0f;
  for (int dy = -1; dy <= 1; ++dy) {
    const float* row = in + (y + dy) * P;
    acc += row[x - 1];
    acc += row[x];
    acc += row[x + 1];
  }
  out[(y - 1) * W + (x - 1)] = acc * (1.0f / 9.0f);
}

int main() {
  float *in, *out;
  CK(cudaMalloc(&in, (size_t)P * (H + 2) * sizeof(float)));
  CK(cudaMalloc(&out, (size_t)W * H * sizeof(float)));
  CK(cudaMemset(in, 0, (size_t)P * (H + 2) * sizeof(float)));

  dim3 b16(T, T);
  laplaceShared<<<dim3(W / T, H / T), b16>>>(in, out);
  dim3 b32x4(32, 4);
  box9Global<<<dim3(W / 32, H / 4), b32x4>>>(in, out);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(in));
  CK(cudaFree(out));
  return 0;
}
