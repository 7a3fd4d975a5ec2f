// Transposes through XOR-swizzled shared tiles and 64-bit tiles: a full 32x32 block with
// tile[ty][tx ^ ty] (no padding), a 32x8 block with the swizzle on ty + j, and a double
// transpose (block 32x8) with a padded [32][33] double tile and an unpadded [32][32] one.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int DIM = 512;

__global__ void xorTranspose32x32(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx ^ ty] = in[(blockIdx.y * 32 + ty) * n + blockIdx.x * 32 + tx];
  __syncthreads();
  out[(blockIdx.x * 32 + ty) * n + blockIdx.y * 32 + tx] = tile[tx][ty ^ tx];
}

__global__ void xorTranspose32x8(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[32][32];
  int tx = threadIdx.x;
  for (int j = 0; j < 32; j += 8) {
    int r = threadIdx.y + j;
    tile[r][tx ^ r] = in[(blockIdx.y * 32 + r) * n + blockIdx.x * 32 + tx];
  }
  __syncthreads();
  for (int j = 0; j < 32; j += 8) {
    int r = threadIdx.y + j;
    out[(blockIdx.x * 32 + r) * n + blockIdx.y * 32 + tx] = tile[tx][r ^ tx];
  }
}

__global__ void transposeDoublePadded(const double* __restrict__ in, double* __restrict__ out, int n) {
  __shared__ double tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transposeDoubleNoPad(const double* __restrict__ in, double* __restrict__ out, int n) {
  __shared__ double tile[32][32];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main() {
  const size_t bytes = (size_t)DIM * DIM * sizeof(double);
  void *in, *out;
  CK(cudaMalloc(&in, bytes));
  CK(cudaMalloc(&out, bytes));
  CK(cudaMemset(in, 0, bytes));

  dim3 grid(DIM / 32, DIM / 32);
  xorTranspose32x32<<<grid, dim3(32, 32)>>>((const float*)in, (float*)out, DIM);
  xorTranspose32x8<<<grid, dim3(32, 8)>>>((const float*)in, (float*)out, DIM);
  transposeDoublePadded<<<grid, dim3(32, 8)>>>((const double*)in, (double*)out, DIM);
  transposeDoubleNoPad<<<grid, dim3(32, 8)>>>((const double*)in, (double*)out, DIM);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(in));
  CK(cudaFree(out));
  return 0;
}
