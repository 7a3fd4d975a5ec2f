// Tiled transposes of a 1024x1024 float matrix with different block shapes: 32x8 with a
// [32][33] padded tile, 32x4 with an UNPADDED [32][32] tile, 16x16 with a [16][17] tile,
// and 8x32 (threadIdx.x spans only 8 columns) with a [32][33] tile.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int DIM = 1024;

__global__ void transpose32x8(const float* __restrict__ in, float* __restrict__ out, int w, int h) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose32x4NoPad(const float* __restrict__ in, float* __restrict__ out, int w, int h) {
  __shared__ float tile[32][32];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 4)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 4)
    out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose16x16(const float* __restrict__ in, float* __restrict__ out, int w, int h) {
  __shared__ float tile[16][17];
  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y * 16 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  int ox = blockIdx.y * 16 + threadIdx.x;
  int oy = blockIdx.x * 16 + threadIdx.y;
  out[oy * h + ox] = tile[threadIdx.x][threadIdx.y];
}

__global__ void transpose8x32(const float* __restrict__ in, float* __restrict__ out, int w, int h) {
  __shared__ float tile[32][33];
  int ty = threadIdx.y;
  int bx = blockIdx.x * 32, by = blockIdx.y * 32;
  for (int k = 0; k < 32; k += 8)
    tile[ty][threadIdx.x + k] = in[(by + ty) * w + bx + threadIdx.x + k];
  __syncthreads();
  for (int k = 0; k < 32; k += 8)
    out[(bx + ty) * h + by + threadIdx.x + k] = tile[threadIdx.x + k][ty];
}

int main() {
  float *in, *out;
  const size_t bytes = (size_t)DIM * DIM * sizeof(float);
  CK(cudaMalloc(&in, bytes));
  CK(cudaMalloc(&out, bytes));
  CK(cudaMemset(in, 0, bytes));

  dim3 grid(DIM / 32, DIM / 32);
  transpose32x8<<<grid, dim3(32, 8)>>>(in, out, DIM, DIM);
  transpose32x4NoPad<<<grid, dim3(32, 4)>>>(in, out, DIM, DIM);
  transpose16x16<<<dim3(DIM / 16, DIM / 16), dim3(16, 16)>>>(in, out, DIM, DIM);
  transpose8x32<<<grid, dim3(8, 32)>>>(in, out, DIM, DIM);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(in));
  CK(cudaFree(out));
  return 0;
}
