// Runtime strides and offsets passed from the host (constexpr in main, plain int parameters in the
// kernels): in[i * stride] (stride 4), in[i + offset] (offset 3), out[i * stride + offset]
// (stride 8, offset 5), a 64-bit stride (2) and a 2D read in[row * ld + col * stride] (ld 4096,
// stride 3). Launches go through host wrappers taking dim3 grid and int/dim3 block: 1D 1024 x 256, 2D (32,64)x(32,8).
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void gatherStride(const float* __restrict__ in, float* __restrict__ out, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * stride];
}

__global__ void readOffset(const float* __restrict__ in, float* __restrict__ out, int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i + offset];
}

__global__ void scatterStrideOffset(const float* __restrict__ in, float* __restrict__ out, int stride, int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  out[i * stride + offset] = v;
}

__global__ void gatherStride64(const double* __restrict__ in, double* __restrict__ out, long long stride) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * stride];
}

__global__ void read2DStrided(const float* __restrict__ in, float* __restrict__ out, int ld, int stride) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  float v = in[row * ld + col * stride];
  out[row * (gridDim.x * blockDim.x) + col] = v;
}

void launch1D(dim3 grid, int block, const float* in, float* out, int stride, int offset, int which) {
  if (which == 0) gatherStride<<<grid, block>>>(in, out, stride);
  if (which == 1) readOffset<<<grid, block>>>(in, out, offset);
  if (which == 2) scatterStrideOffset<<<grid, block>>>(in, out, stride, offset);
}

void launch2D(dim3 grid, dim3 block, const float* in, float* out, int ld, int stride) {
  read2DStrided<<<grid, block>>>(in, out, ld, stride);
}

int main() {
  constexpr int N = 1 << 18;
  constexpr int TPB = 256;
  constexpr int STRIDE = 4, OFFSET = 3, SC_STRIDE = 8, SC_OFFSET = 5;
  constexpr long long DSTRIDE = 2;
  constexpr int LD = 4096, COL_STRIDE = 3, ROWS = 512, COLS = 1024;
  float *in, *out;
  double *din, *dout;
  CK(cudaMalloc(&in, (size_t)N * SC_STRIDE * sizeof(float)));
  CK(cudaMalloc(&out, (size_t)N * SC_STRIDE * sizeof(float) + 64));
  CK(cudaMalloc(&din, N * DSTRIDE * sizeof(double)));
  CK(cudaMalloc(&dout, N * sizeof(double)));
  CK(cudaMemset(in, 0, (size_t)N * SC_STRIDE * sizeof(float)));
  CK(cudaMemset(din, 0, N * DSTRIDE * sizeof(double)));

  dim3 grid(N / TPB);
  launch1D(grid, TPB, in, out, STRIDE, OFFSET, 0);
  launch1D(grid, TPB, in, out, STRIDE, OFFSET, 1);
  launch1D(grid, TPB, in, out, SC_STRIDE, SC_OFFSET, 2);
  gatherStride64<<<N / TPB, TPB>>>(din, dout, DSTRIDE);
  launch2D(dim3(COLS / 32, ROWS / 8), dim3(32, 8), in, out, LD, COL_STRIDE);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(in)); CK(cudaFree(out)); CK(cudaFree(din)); CK(cudaFree(dout));
  return 0;
}
