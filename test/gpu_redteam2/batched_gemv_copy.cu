// Batched GEMV y[b] = A[b] x[b], blockIdx.y = batch: thread per row (row-major A, k loop, so lanes
// are K floats apart) and warp per row (lanes over k); strided batched 2D copy with blockIdx.z =
// batch, source leading dim 520 (rows not 128-B aligned), destination 512, launched through a
// host wrapper taking the dim3 block. B=16, M=512, K=256. Launches: (4,16)x128, (64,16)x256, (16,8,16)x(32,8).
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void gemvThreadPerRow(const float* __restrict__ A, const float* __restrict__ x,
                                 float* __restrict__ y, int M, int K) {
  int b = blockIdx.y;
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  const float* Ab = A + (size_t)b * M * K;
  float s = 0.0f;
  for (int k = 0; k < K; ++k) {
    float a = Ab[(size_t)row * K + k];
    float xv = x[b * K + k];
    s += a * xv;
  }
  y[b * M + row] = s;
}

__global__ void gemvWarpPerRow(const float* __restrict__ A, const float* __restrict__ x,
                               float* __restrict__ y, int M, int K) {
  int b = blockIdx.y;
  int warpsPerBlock = blockDim.x / 32;
  int row = blockIdx.x * warpsPerBlock + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  float s = 0.0f;
  for (int k = lane; k < K; k += 32) {
    float a = A[((size_t)b * M + row) * K + k];
    float xv = x[b * K + k];
    s += a * xv;
  }
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0) y[b * M + row] = s;
}

__global__ void stridedBatchedCopy(const float* __restrict__ src, int lds, long long srcBatch,
                                   float* __restrict__ dst, int ldd, long long dstBatch, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z;
  if (x < cols && y < rows) {
    float v = src[z * srcBatch + (long long)y * lds + x];
    dst[z * dstBatch + (long long)y * ldd + x] = v;
  }
}

void launchBatchedCopy(const float* src, int lds, float* dst, int ldd, int rows, int cols, int batches, dim3 block) {
  dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y, batches);
  stridedBatchedCopy<<<grid, block>>>(src, lds, (long long)lds * rows, dst, ldd, (long long)ldd * rows, rows, cols);
}

int main() {
  constexpr int B = 16, M = 512, K = 256;
  constexpr int ROWS = 64, COLS = 512, LDS = 520, LDD = 512;
  float *A, *x, *y, *src, *dst;
  CK(cudaMalloc(&A, (size_t)B * M * K * sizeof(float)));
  CK(cudaMalloc(&x, B * K * sizeof(float)));
  CK(cudaMalloc(&y, B * M * sizeof(float)));
  CK(cudaMalloc(&src, (size_t)B * ROWS * LDS * sizeof(float)));
  CK(cudaMalloc(&dst, (size_t)B * ROWS * LDD * sizeof(float)));
  CK(cudaMemset(A, 0, (size_t)B * M * K * sizeof(float)));
  CK(cudaMemset(x, 0, B * K * sizeof(float)));
  CK(cudaMemset(src, 0, (size_t)B * ROWS * LDS * sizeof(float)));

  gemvThreadPerRow<<<dim3(M / 128, B), 128>>>(A, x, y, M, K);
  dim3 gw(M / 8, B);
  gemvWarpPerRow<<<gw, 256>>>(A, x, y, M, K);
  launchBatchedCopy(src, LDS, dst, LDD, ROWS, COLS, B, dim3(32, 8));
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(A)); CK(cudaFree(x)); CK(cudaFree(y)); CK(cudaFree(src)); CK(cudaFree(dst));
  return 0;
}
