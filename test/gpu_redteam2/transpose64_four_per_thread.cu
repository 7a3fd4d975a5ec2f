// 64x64 tiled transposes, each thread moving 4 elements: block 64x16 with for (j = 0; j < 64;
// j += 16) over a padded [64][65] tile and an unpadded [64][64] tile; and block 16x64 where the
// 4 elements step along x (i += 16), so a warp is 2 rows of 16 threads. Matrix 1024 x 1024.
// Launches: dim3(16,16) x dim3(64,16) twice, dim3(16,16) x dim3(16,64).
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int T = 64;

__global__ void transpose64Padded(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[T][T + 1];
  int x = blockIdx.x * T + threadIdx.x;
  int y = blockIdx.y * T + threadIdx.y;
  for (int j = 0; j < T; j += 16) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * T + threadIdx.x;
  y = blockIdx.x * T + threadIdx.y;
  for (int j = 0; j < T; j += 16) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose64NoPad(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[T][T];
  int x = blockIdx.x * T + threadIdx.x;
  int y = blockIdx.y * T + threadIdx.y;
  for (int j = 0; j < T; j += 16) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * T + threadIdx.x;
  y = blockIdx.x * T + threadIdx.y;
  for (int j = 0; j < T; j += 16) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose64AlongX(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[T][T + 1];
  int x = blockIdx.x * T + threadIdx.x;
  int y = blockIdx.y * T + threadIdx.y;
  for (int i = 0; i < T; i += 16) tile[threadIdx.y][threadIdx.x + i] = in[y * n + x + i];
  __syncthreads();
  int ox = blockIdx.y * T + threadIdx.x;
  int oy = blockIdx.x * T + threadIdx.y;
  for (int i = 0; i < T; i += 16) out[oy * n + ox + i] = tile[threadIdx.x + i][threadIdx.y];
}

int main() {
  const int n = 1024;
  float *in, *out;
  CK(cudaMalloc(&in, n * n * sizeof(float)));
  CK(cudaMalloc(&out, n * n * sizeof(float)));
  CK(cudaMemset(in, 0, n * n * sizeof(float)));

  dim3 grid(n / T, n / T);
  dim3 wide(T, 16);
  transpose64Padded<<<grid, wide>>>(in, out, n);
  transpose64NoPad<<<grid, wide>>>(in, out, n);
  transpose64AlongX<<<grid, dim3(16, T)>>>(in, out, n);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(in)); CK(cudaFree(out));
  return 0;
}
