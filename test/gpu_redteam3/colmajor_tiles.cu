// Column-major matrices where blockIdx.x picks the column (tile) and threadIdx.x the row:
// A[col * ld + row] (coalesced) vs. the row-major A[row * ld + col] with the same mapping, and the
// transposed-grid variants (blockIdx.y the column, 2D block 32 x 8 with threadIdx.y in a column tile).
// Launches: dim3(256, 2) x 128, dim3(4, 256) x 64, dim3(32, 8) x dim3(32, 8), 256 x 256.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void colTileByX(const float* __restrict__ A, float* __restrict__ B, int ld) {
  int col = blockIdx.x;
  int row = blockIdx.y * blockDim.x + threadIdx.x;
  float v = A[col * ld + row];
  B[row * ld + col] = v;
}

__global__ void colTileByY(const float* __restrict__ A, float* __restrict__ B, int ld) {
  int col = blockIdx.y;
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float v = A[(size_t)col * ld + row];
  B[(size_t)col * ld + row] = v * 2.0f;
}

__global__ void colTile2D(const float* __restrict__ A, float* __restrict__ B, int ld) {
  int row = blockIdx.y * 32 + threadIdx.x;
  int col = blockIdx.x * 8 + threadIdx.y;
  float v = A[col * ld + row];
  int rrow = blockIdx.x * 8 + threadIdx.y;
  int rcol = blockIdx.y * 32 + threadIdx.x;
  B[rcol * ld + rrow] = v;
}

__global__ void rowPerThreadColWalk(const float* __restrict__ A, float* __restrict__ y, int ld, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int c = 0; c < cols; ++c) s += A[c * ld + row];
  float t = 0.0f;
  for (int c = 0; c < 4; ++c) t += A[row * 4 + c];
  y[row] = s + t;
}

int main() {
  const int ld = 256;        // rows of a column-major 256 x 256 matrix
  const int n = ld * 256;    // 65536
  float *A, *B, *y;
  CK(cudaMalloc(&A, 4 * n * sizeof(float)));
  CK(cudaMalloc(&B, 4 * n * sizeof(float)));
  CK(cudaMalloc(&y, n * sizeof(float)));
  CK(cudaMemset(A, 0, 4 * n * sizeof(float)));

  colTileByX<<<dim3(256, 2), 128>>>(A, B, ld);      // col < 256, row < 256
  colTileByY<<<dim3(4, 256), 64>>>(A, B, ld);       // row < 256, col < 256
  dim3 grid2(32, 8), blk2(32, 8);
  colTile2D<<<grid2, blk2>>>(A, B, ld);             // col < 256, row < 256
  rowPerThreadColWalk<<<256, 256>>>(A, y, ld, 4);   // row < 65536: 3 * 256 + 65535 < 4n; row*4+3 < 4n
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(A)); CK(cudaFree(B)); CK(cudaFree(y));
  return 0;
}
