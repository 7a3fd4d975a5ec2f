// uniform_k_matmul.cu: naive matrix multiplies. The loop variable k is the same in every
// lane: A[row * N + k] is one address per row of the warp (a broadcast when the warp is a
// single row), B[k * N + col] is the warp's columns of row k.
#include <cuda_runtime.h>

constexpr int N = 512;

// Block 16 x 16: a warp is 2 rows x 16 columns. A: 2 addresses in 2 sectors for 8 bytes
// (ideal 1). B: 16 consecutive floats, 2 sectors. C: two 64-byte runs.
__global__ void matmulNaive16(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float acc = 0.0f;
    for (int k = 0; k < n; ++k) acc += A[row * n + k] * B[k * n + col];  // expect: global load sectors=2 ideal=1 eta=0.50 ; global load sectors=2 ideal=2 eta=1.00
    C[row * n + col] = acc;  // expect: global store sectors=4 ideal=4 eta=1.00
  }
}

// Block 32 x 8: a warp is one row: A is a broadcast (1 sector), B 4 sectors.
__global__ void matmulNaive32(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
#pragma unroll 4
  for (int k = 0; k < N; ++k) acc += A[row * N + k] * B[k * N + col];  // expect: global load sectors=1 ideal=1 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00
  C[row * N + col] = acc;  // expect: global store sectors=4 ideal=4 eta=1.00
}

// Row and column swapped onto the thread axes (block 16 x 16): lanes tx walk rows of A
// (16 rows, 16 sectors for 64 bytes), B is 2 neighbouring floats, C is 16 runs of 8 bytes.
__global__ void matmulSwapped(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int col = blockIdx.y * blockDim.y + threadIdx.y;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) acc += A[row * n + k] * B[k * n + col];  // expect: global load sectors=16 ideal=2 eta=0.12 ; global load sectors=1 ideal=1 eta=1.00
  C[row * n + col] = acc;  // expect: global store sectors=16 ideal=4 eta=0.25
}

// Matrix-vector, one thread per row (block 128): lanes n floats apart in A; x[k] uniform.
__global__ void gemvRowPerThread(const float* __restrict__ A, const float* __restrict__ x, float* __restrict__ y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) acc += A[row * n + k] * x[k];  // expect: global load sectors=32 ideal=4 eta=0.12 ; global load sectors=1 ideal=1 eta=1.00
  y[row] = acc;  // expect: global store sectors=4 ideal=4 eta=1.00
}

int main() {
  float *A, *B, *C;
  cudaMalloc(&A, N * N * sizeof(float));
  cudaMalloc(&B, N * N * sizeof(float));
  cudaMalloc(&C, N * N * sizeof(float));
  matmulNaive16<<<dim3(N / 16, N / 16), dim3(16, 16)>>>(A, B, C, N);
  matmulNaive32<<<dim3(N / 32, N / 8), dim3(32, 8)>>>(A, B, C);
  matmulSwapped<<<dim3(N / 16, N / 16), dim3(16, 16)>>>(A, B, C, N);
  gemvRowPerThread<<<N / 128, 128>>>(A, B, C, N);
  cudaDeviceSynchronize();
  return 0;
}
