// 2D shared arrays indexed [threadIdx.x][k] inside a k-loop (each thread walks its own row, the
// warp walks a column): float widths 33 and 32, double widths 33 and 32, and an int [k][threadIdx.x]
// control. Launches: 64 x 128 for the float/int kernels, 64 x 64 for the double kernels.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void walkF33(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float t[128][33];
  for (int k = 0; k < 32; ++k) {
    auto v = in[blockIdx.x * 4096 + k * 128 + threadIdx.x];
    t[threadIdx.x][k] = v;
  }
  __syncthreads();
  float s = 0.0f;
  for (int k = 0; k < 32; ++k) s += t[threadIdx.x][k] * (float)k;
  out[blockIdx.x * 128 + threadIdx.x] = s;
}

__global__ void walkF32(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float t[128][32];
  for (int k = 0; k < 32; ++k) {
    auto v = in[blockIdx.x * 4096 + k * 128 + threadIdx.x];
    t[threadIdx.x][k] = v;
  }
  __syncthreads();
  float s = 0.0f;
  for (int k = 0; k < 32; ++k) s += t[threadIdx.x][k] * (float)k;
  out[blockIdx.x * 128 + threadIdx.x] = s;
}

__global__ void walkD33(const double* __restrict__ in, double* __restrict__ out) {
  __shared__ double t[64][33];
  for (int k = 0; k < 32; ++k) {
    auto v = in[blockIdx.x * 2048 + k * 64 + threadIdx.x];
    t[threadIdx.x][k] = v;
  }
  __syncthreads();
  double s = 0.0;
  for (int k = 0; k < 32; ++k) s += t[threadIdx.x][k] * (double)k;
  out[blockIdx.x * 64 + threadIdx.x] = s;
}

__global__ void walkD32(const double* __restrict__ in, double* __restrict__ out) {
  __shared__ double t[64][32];
  for (int k = 0; k < 32; ++k) {
    auto v = in[blockIdx.x * 2048 + k * 64 + threadIdx.x];
    t[threadIdx.x][k] = v;
  }
  __syncthreads();
  double s = 0.0;
  for (int k = 0; k < 32; ++k) s += t[threadIdx.x][k] * (double)k;
  out[blockIdx.x * 64 + threadIdx.x] = s;
}

__global__ void walkIntRowMajor(const int* __restrict__ in, int* __restrict__ out) {
  __shared__ int t[32][128];
  for (int k = 0; k < 32; ++k) {
    auto v = in[blockIdx.x * 4096 + k * 128 + threadIdx.x];
    t[k][threadIdx.x] = v;
  }
  __syncthreads();
  int s = 0;
  for (int k = 0; k < 32; ++k) s += t[k][threadIdx.x] ^ k;
  out[blockIdx.x * 128 + threadIdx.x] = s;
}

int main() {
  const int n = 64 * 4096;
  float *fi, *fo;
  double *di, *dout;
  CK(cudaMalloc(&fi, n * sizeof(float)));
  CK(cudaMalloc(&fo, n * sizeof(float)));
  CK(cudaMalloc(&di, n * sizeof(double)));
  CK(cudaMalloc(&dout, n * sizeof(double)));
  CK(cudaMemset(fi, 0, n * sizeof(float)));
  CK(cudaMemset(di, 0, n * sizeof(double)));

  walkF33<<<64, 128>>>(fi, fo);
  walkF32<<<64, 128>>>(fi, fo);
  walkD33<<<64, 64>>>(di, dout);
  walkD32<<<64, 64>>>(di, dout);
  walkIntRowMajor<<<64, 128>>>(reinterpret_cast<const int*>(fi), reinterpret_cast<int*>(fo));
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(fi)); CK(cudaFree(fo)); CK(cudaFree(di)); CK(cudaFree(dout));
  return 0;
}
