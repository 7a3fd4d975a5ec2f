// Column-major (BLAS-style, leading dimension lda) matrix access: gemv y = A x with one thread
// per row (walks down columns), gemv y = A^T x with one thread per column (lanes lda apart),
// and a 2D column-major scale with block 32x8 where threadIdx.x is the row index.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int M = 1000;    // rows
constexpr int LDA = 1024;  // leading dimension (elements)
constexpr int NC = 512;    // columns

#define IDX2C(i, j, ld) ((j) * (ld) + (i))

__global__ void gemvN(const float* __restrict__ A, int lda, const float* __restrict__ x, float* __restrict__ y, int m, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m) return;
  float acc = 0.0f;
  for (int j = 0; j < n; ++j) {
    float a = A[IDX2C(row, j, lda)];
    float xv = x[j];
    acc += a * xv;
  }
  y[row] = acc;
}

__global__ void gemvT(const float* __restrict__ A, int lda, const float* __restrict__ x, float* __restrict__ y, int m, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= n) return;
  float acc = 0.0f;
  for (int i = 0; i < m; ++i) {
    float a = A[(size_t)col * lda + i];
    float xv = x[i];
    acc += a * xv;
  }
  y[col] = acc;
}

__global__ void scaleColMajor(float* __restrict__ A, int lda, int m, int n, float alpha) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;  // row
  int j = blockIdx.y * blockDim.y + threadIdx.y;  // column
  if (i < m && j < n) {
    A[IDX2C(i, j, lda)] *= alpha;
  }
}

int main() {
  float *A, *x, *y;
  CK(cudaMalloc(&A, (size_t)LDA * NC * sizeof(float)));
  CK(cudaMalloc(&x, 1024 * sizeof(float)));
  CK(cudaMalloc(&y, 1024 * sizeof(float)));
  CK(cudaMemset(A, 0, (size_t)LDA * NC * sizeof(float)));
  CK(cudaMemset(x, 0, 1024 * sizeof(float)));

  gemvN<<<(M + 127) / 128, 128>>>(A, LDA, x, y, M, NC);
  gemvT<<<NC / 64, 64>>>(A, LDA, x, y, M, NC);
  dim3 block(32, 8);
  dim3 grid((M + 31) / 32, NC / 8);
  scaleColMajor<<<grid, block>>>(A, LDA, M, NC, 0.5f);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(A)); CK(cudaFree(x)); CK(cudaFree(y));
  return 0;
}
