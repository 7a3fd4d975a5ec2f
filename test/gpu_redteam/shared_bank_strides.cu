// Shared-memory bank patterns on 32-bit words, one pattern per line: strides 2, 3, 4, 8, 16,
// 32, 33 words, a broadcast, pair-sharing (tid / 2), stride-3 and stride-32 stores (block 128);
// plus a [16][16] int tile read by column with block 16x16 and an odd [64][17] tile.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int TPB = 128;
constexpr int SZ = TPB * 33;

__global__ void strides(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float buf[SZ];
  int tid = threadIdx.x;
  for (int k = tid; k < SZ; k += TPB) buf[k] = in[blockIdx.x * SZ + k];
  __syncthreads();
  float acc = 0.0f;
  acc += buf[tid * 2];
  acc += buf[tid * 3];
  acc += buf[tid * 4];
  acc += buf[tid * 8];
  acc += buf[tid * 16];
  acc += buf[tid * 32];
  acc += buf[tid * 33];
  acc += buf[5];
  acc += buf[(tid / 2) * 2];
  __syncthreads();
  buf[tid * 3] = acc;
  buf[tid * 32 + 1] = acc;
  __syncthreads();
  float r = buf[tid];
  out[blockIdx.x * TPB + tid] = r;
}

__global__ void tile16Column(const int* __restrict__ in, int* __restrict__ out) {
  __shared__ int t[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int g = blockIdx.x * 256 + ty * 16 + tx;
  t[ty][tx] = in[g];
  __syncthreads();
  int v = t[tx][ty];
  out[g] = v;
}

__global__ void tile17Rows(const int* __restrict__ in, int* __restrict__ out) {
  __shared__ int t[64][17];
  int tid = threadIdx.x;   // 64 threads, one row each
  for (int c = 0; c < 16; ++c) t[tid][c] = in[blockIdx.x * 1024 + c * 64 + tid];
  __syncthreads();
  int s = 0;
  for (int c = 0; c < 16; ++c) s += t[tid][c];
  out[blockIdx.x * 64 + tid] = s;
}

int main() {
  const int blocks = 64;
  float *in, *out;
  int *iin, *iout;
  CK(cudaMalloc(&in, (size_t)blocks * SZ * sizeof(float)));
  CK(cudaMalloc(&out, blocks * TPB * sizeof(float)));
  CK(cudaMalloc(&iin, blocks * 1024 * sizeof(int)));
  CK(cudaMalloc(&iout, blocks * 1024 * sizeof(int)));
  CK(cudaMemset(in, 0, (size_t)blocks * SZ * sizeof(float)));
  CK(cudaMemset(iin, 0, blocks * 1024 * sizeof(int)));

  strides<<<blocks, TPB>>>(in, out);
  tile16Column<<<blocks * 4, dim3(16, 16)>>>(iin, iout);
  tile17Rows<<<blocks, 64>>>(iin, iout);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(in)); CK(cudaFree(out)); CK(cudaFree(iin)); CK(cudaFree(iout));
  return 0;
}
