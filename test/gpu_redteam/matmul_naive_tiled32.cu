// Matrix multiply C = A * B (512x512, row-major): naive with block 16x16 (row of A, column
// of B), naive with swapped mapping (threadIdx.x selects the ROW, block 32x8), and shared
// tiled with a 32x32 tile and a full 32x32 (1024-thread) block.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int N = 512;
constexpr int TILE = 32;

__global__ void matmulNaive(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) {
    float a = A[row * n + k];
    float b = B[k * n + col];
    acc += a * b;
  }
  C[row * n + col] = acc;
}

__global__ void matmulNaiveSwapped(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int col = blockIdx.y * blockDim.y + threadIdx.y;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) {
    float a = A[row * n + k];
    float b = B[k * n + col];
    acc += a * b;
  }
  C[row * n + col] = acc;
}

__global__ void matmulTiled32(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    As[ty][tx] = A[row * n + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * n + col];
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < TILE; ++k) {
      float a = As[ty][k];
      float b = Bs[k][tx];
      acc += a * b;
    }
    __syncthreads();
  }
  C[row * n + col] = acc;
}

int main() {
  const size_t bytes = (size_t)N * N * sizeof(float);
  float *A, *B, *C;
  CK(cudaMalloc(&A, bytes));
  CK(cudaMalloc(&B, bytes));
  CK(cudaMalloc(&C, bytes));
  CK(cudaMemset(A, 0, bytes));
  CK(cudaMemset(B, 0, bytes));

  matmulNaive<<<dim3(N / 16, N / 16), dim3(16, 16)>>>(A, B, C, N);
  matmulNaiveSwapped<<<dim3(N / 32, N / 8), dim3(32, 8)>>>(A, B, C, N);
  matmulTiled32<<<dim3(N / TILE, N / TILE), dim3(TILE, TILE)>>>(A, B, C, N);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(A)); CK(cudaFree(B)); CK(cudaFree(C));
  return 0;
}
