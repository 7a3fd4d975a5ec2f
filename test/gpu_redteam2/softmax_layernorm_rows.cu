// One block per row: softmax with a strided column loop (col = threadIdx.x; col < cols;
// col += blockDim.x), cols = 1000 so rows start unaligned, tree reductions in dynamic shared
// memory, launched through a host wrapper taking the thread count (256); layernorm on 768
// columns with warp shuffles, warp partials in __shared__ float[32], gamma/beta loads (block 128).
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void softmaxRows(const float* __restrict__ x, float* __restrict__ y, int cols) {
  extern __shared__ float red[];
  const float* xr = x + (size_t)blockIdx.x * cols;
  float* yr = y + (size_t)blockIdx.x * cols;
  int tid = threadIdx.x;
  float m = -1e30f;
  for (int col = tid; col < cols; col += blockDim.x) m = fmaxf(m, xr[col]);
  red[tid] = m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      float other = red[tid + s];
      red[tid] = fmaxf(red[tid], other);
    }
    __syncthreads();
  }
  float rowMax = red[0];
  __syncthreads();
  float sum = 0.0f;
  for (int col = tid; col < cols; col += blockDim.x) sum += __expf(xr[col] - rowMax);
  red[tid] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      float other = red[tid + s];
      red[tid] += other;
    }
    __syncthreads();
  }
  float inv = 1.0f / red[0];
  for (int col = tid; col < cols; col += blockDim.x) yr[col] = __expf(xr[col] - rowMax) * inv;
}

void launchSoftmax(const float* x, float* y, int rows, int cols, int threads) {
  softmaxRows<<<rows, threads, threads * sizeof(float)>>>(x, y, cols);
}

__inline__ __device__ float warpSum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

__global__ void layerNorm(const float* __restrict__ x, const float* __restrict__ gamma,
                          const float* __restrict__ beta, float* __restrict__ y, int cols, float eps) {
  __shared__ float ws[32];
  __shared__ float wq[32];
  __shared__ float stats[2];
  const float* xr = x + (size_t)blockIdx.x * cols;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
  float s = 0.0f, q = 0.0f;
  for (int col = threadIdx.x; col < cols; col += blockDim.x) {
    float v = xr[col];
    s += v;
    q += v * v;
  }
  s = warpSum(s);
  q = warpSum(q);
  if (lane == 0) { ws[warp] = s; wq[warp] = q; }
  __syncthreads();
  if (warp == 0) {
    float a = lane < nwarps ? ws[lane] : 0.0f;
    float b = lane < nwarps ? wq[lane] : 0.0f;
    a = warpSum(a);
    b = warpSum(b);
    if (lane == 0) { stats[0] = a / cols; stats[1] = rsqrtf(b / cols - (a / cols) * (a / cols) + eps); }
  }
  __syncthreads();
  float mean = stats[0], rstd = stats[1];
  for (int col = threadIdx.x; col < cols; col += blockDim.x) {
    float v = xr[col];
    float g = gamma[col];
    float bt = beta[col];
    y[(size_t)blockIdx.x * cols + col] = (v - mean) * rstd * g + bt;
  }
}

int main() {
  const int rows = 512, scols = 1000, lcols = 768;
  float *x, *y, *gamma, *beta;
  CK(cudaMalloc(&x, rows * scols * sizeof(float)));
  CK(cudaMalloc(&y, rows * scols * sizeof(float)));
  CK(cudaMalloc(&gamma, lcols * sizeof(float)));
  CK(cudaMalloc(&beta, lcols * sizeof(float)));
  CK(cudaMemset(x, 0, rows * scols * sizeof(float)));
  CK(cudaMemset(gamma, 0, lcols * sizeof(float)));
  CK(cudaMemset(beta, 0, lcols * sizeof(float)));

  launchSoftmax(x, y, rows, scols, 256);
  layerNorm<<<rows, 128>>>(x, gamma, beta, y, lcols, 1e-5f);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(x)); CK(cudaFree(y)); CK(cudaFree(gamma)); CK(cudaFree(beta));
  return 0;
}
