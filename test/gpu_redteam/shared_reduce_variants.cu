// Shared reductions: interleaved addressing with index = 2 * s * tid (strided shared access,
// block 256), first-add-during-load + sequential addressing down to 64 then an unrolled
// volatile warp tail (block 512), and a double-precision sequential reduction (block 128).
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int N = 1 << 20;

__global__ void reduceStridedIndex(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x) sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

__device__ void warpTail(volatile float* s, unsigned tid) {
  s[tid] += s[tid + 32];
  s[tid] += s[tid + 16];
  s[tid] += s[tid + 8];
  s[tid] += s[tid + 4];
  s[tid] += s[tid + 2];
  s[tid] += s[tid + 1];
}

__global__ void reduceTwoLoads(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float sdata[512];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockDim.x * 2) + tid;
  float v = in[i];
  v += in[i + blockDim.x];
  sdata[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) warpTail(sdata, tid);
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

__global__ void reduceDouble(const double* __restrict__ in, double* __restrict__ out) {
  __shared__ double sd[128];
  int tid = threadIdx.x;
  sd[tid] = in[blockIdx.x * 128 + tid];
  __syncthreads();
  for (int s = 64; s > 0; s >>= 1) {
    if (tid < s) sd[tid] += sd[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sd[0];
}

int main() {
  float *in, *out;
  double *din, *dout;
  CK(cudaMalloc(&in, N * sizeof(float)));
  CK(cudaMalloc(&out, N / 128 * sizeof(float)));
  CK(cudaMalloc(&din, N * sizeof(double)));
  CK(cudaMalloc(&dout, N / 128 * sizeof(double)));
  CK(cudaMemset(in, 0, N * sizeof(float)));
  CK(cudaMemset(din, 0, N * sizeof(double)));

  reduceStridedIndex<<<N / 256, 256>>>(in, out);
  reduceTwoLoads<<<N / 1024, 512>>>(in, out);
  reduceDouble<<<N / 128, 128>>>(din, dout);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(in)); CK(cudaFree(out)); CK(cudaFree(din)); CK(cudaFree(dout));
  printf("done\n");
  return 0;
}
