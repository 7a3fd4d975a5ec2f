// 64-bit shared accesses at several strides, one per line: double reads at element strides 1, 2,
// 16, 17, a pair-shared double (tid / 2) and a stride-17 double store; float2 reads at strides 1,
// 2, 16 and a stride-2 float2 store. Shared tiles filled by a strided loop from global memory.
// Launches: 64 x 128 (double, 17 KB) and 64 x 128 (float2, 16 KB).
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int TPB = 128;
constexpr int DSZ = TPB * 17;
constexpr int FSZ = TPB * 16;

__global__ void doubleStrides(const double* __restrict__ in, double* __restrict__ out) {
  __shared__ double sd[DSZ];
  int tid = threadIdx.x;
  for (int k = tid; k < DSZ; k += TPB) sd[k] = in[blockIdx.x * DSZ + k];
  __syncthreads();
  double acc = 0.0;
  acc += sd[tid];
  acc += sd[tid * 2];
  acc += sd[tid * 16];
  acc += sd[tid * 17];
  acc += sd[tid / 2];
  __syncthreads();
  sd[tid * 17] = acc;
  __syncthreads();
  double r = sd[tid];
  out[blockIdx.x * TPB + tid] = r;
}

__global__ void float2Strides(const float2* __restrict__ in, float2* __restrict__ out) {
  __shared__ float2 sf[FSZ];
  int tid = threadIdx.x;
  for (int k = tid; k < FSZ; k += TPB) sf[k] = in[blockIdx.x * FSZ + k];
  __syncthreads();
  float2 a = sf[tid];
  float2 b = sf[tid * 2];
  float2 c = sf[tid * 16];
  __syncthreads();
  sf[tid * 2] = make_float2(a.x + b.x + c.x, a.y + b.y + c.y);
  __syncthreads();
  float2 r = sf[tid * 2 + 1];
  out[blockIdx.x * TPB + tid] = r;
}

int main() {
  const int blocks = 64;
  double *din, *dout;
  float2 *fin, *fout;
  CK(cudaMalloc(&din, (size_t)blocks * DSZ * sizeof(double)));
  CK(cudaMalloc(&dout, blocks * TPB * sizeof(double)));
  CK(cudaMalloc(&fin, (size_t)blocks * FSZ * sizeof(float2)));
  CK(cudaMalloc(&fout, blocks * TPB * sizeof(float2)));
  CK(cudaMemset(din, 0, (size_t)blocks * DSZ * sizeof(double)));
  CK(cudaMemset(fin, 0, (size_t)blocks * FSZ * sizeof(float2)));

  doubleStrides<<<blocks, TPB>>>(din, dout);
  float2Strides<<<blocks, TPB>>>(fin, fout);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(din)); CK(cudaFree(dout)); CK(cudaFree(fin)); CK(cudaFree(fout));
  return 0;
}
