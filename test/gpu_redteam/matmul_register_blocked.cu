// Register-blocked matmul (512x512): a 16x16 block computing a 32x32 C tile with 2x2 outputs
// per thread at ADJACENT positions (Bs[k][2*tx], Bs[k][2*tx+1]), the same with outputs 16
// apart (Bs[k][tx], Bs[k][tx+16]), and a 32x8 block computing 4x1 outputs (rows ty + 8*r).
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int N = 512;
constexpr int T = 32;

__global__ void mm2x2Adjacent(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int n) {
  __shared__ float As[T][T];
  __shared__ float Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
  int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
  float c00 = 0, c01 = 0, c10 = 0, c11 = 0;
  for (int t = 0; t < n; t += T) {
    for (int e = tid; e < T * T; e += 256) {
      As[e / T][e % T] = A[(r0 + e / T) * n + t + e % T];
      Bs[e / T][e % T] = B[(t + e / T) * n + c0 + e % T];
    }
    __syncthreads();
    for (int k = 0; k < T; ++k) {
      float a0 = As[2 * ty][k];
      float a1 = As[2 * ty + 1][k];
      float b0 = Bs[k][2 * tx];
      float b1 = Bs[k][2 * tx + 1];
      c00 += a0 * b0; c01 += a0 * b1; c10 += a1 * b0; c11 += a1 * b1;
    }
    __syncthreads();
  }
  C[(r0 + 2 * ty) * n + c0 + 2 * tx] = c00;
  C[(r0 + 2 * ty) * n + c0 + 2 * tx + 1] = c01;
  C[(r0 + 2 * ty + 1) * n + c0 + 2 * tx] = c10;
  C[(r0 + 2 * ty + 1) * n + c0 + 2 * tx + 1] = c11;
}

__global__ void mm2x2Spread(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int n) {
  __shared__ float As[T][T];
  __shared__ float Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
  float c00 = 0, c01 = 0, c10 = 0, c11 = 0;
  for (int t = 0; t < n; t += T) {
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) {
        As[ty + 16 * i][tx + 16 * j] = A[(r0 + ty + 16 * i) * n + t + tx + 16 * j];
        Bs[ty + 16 * i][tx + 16 * j] = B[(t + ty + 16 * i) * n + c0 + tx + 16 * j];
      }
    __syncthreads();
    for (int k = 0; k < T; ++k) {
      float a0 = As[ty][k];
      float a1 = As[ty + 16][k];
      float b0 = Bs[k][tx];
      float b1 = Bs[k][tx + 16];
      c00 += a0 * b0; c01 += a0 * b1; c10 += a1 * b0; c11 += a1 * b1;
    }
    __syncthreads();
  }
  C[(r0 + ty) * n + c0 + tx] = c00;
  C[(r0 + ty) * n + c0 + tx + 16] = c01;
  C[(r0 + ty + 16) * n + c0 + tx] = c10;
  C[(r0 + ty + 16) * n + c0 + tx + 16] = c11;
}

__global__ void mm4x1(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int n) {
  __shared__ float As[T][T + 1];
  __shared__ float Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
  float acc[4] = {0, 0, 0, 0};
  for (int t = 0; t < n; t += T) {
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      As[ty + 8 * r][tx] = A[(r0 + ty + 8 * r) * n + t + tx];
      Bs[ty + 8 * r][tx] = B[(t + ty + 8 * r) * n + c0 + tx];
    }
    __syncthreads();
    for (int k = 0; k < T; ++k) {
      float b = Bs[k][tx];
#pragma unroll
      for (int r = 0; r < 4; ++r) acc[r] += As[ty + 8 * r][k] * b;
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < 4; ++r) C[(r0 + ty + 8 * r) * n + c0 + tx] = acc[r];
}

int main() {
  const size_t bytes = (size_t)N * N * sizeof(float);
  float *A, *B, *C;
  CK(cudaMalloc(&A, bytes)); CK(cudaMalloc(&B, bytes)); CK(cudaMalloc(&C, bytes));
  CK(cudaMemset(A, 0, bytes)); CK(cudaMemset(B, 0, bytes));

  dim3 grid(N / T, N / T);
  mm2x2Adjacent<<<grid, dim3(16, 16)>>>(A, B, C, N);
  mm2x2Spread<<<grid, dim3(16, 16)>>>(A, B, C, N);
  mm4x1<<<grid, dim3(32, 8)>>>(A, B, C, N);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  CK(cudaFree(A)); CK(cudaFree(B)); CK(cudaFree(C));
  return 0;
}
