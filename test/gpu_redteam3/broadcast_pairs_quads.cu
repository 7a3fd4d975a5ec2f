// Reading the same global address from many lanes: all lanes (in[0], in[blockIdx.x]), pairs of
// lanes (in[i >> 1]), groups of four (in[i / 4], 8 distinct addresses), spread quads
// (in[(i / 4) * 32]), lane % 8 repeats, doubles by pairs, and a shared array read by lane / 4.
// Launches: 128 x 256, 64 x 128, 256 x 64 via a host wrapper.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void broadcastForms(const float* __restrict__ in, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = in[0];
  s += in[blockIdx.x];
  s += in[i >> 1];
  s += in[i / 4];
  out[i] = s;
}

__global__ void spreadGroups(const float* __restrict__ in, const double* __restrict__ d, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  float s = in[(i / 4) * 32];
  s += in[lane % 8];
  s += in[(i / 32) * 32 + (lane % 8) * 4];
  double e = d[i / 2];
  out[i] = s + (float)e;
}

__global__ void sharedQuads(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float sm[64];
  if (threadIdx.x < 64) sm[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  float a = sm[threadIdx.x / 4];
  float b = sm[(threadIdx.x % 4) * 16];
  float c = sm[(threadIdx.x / 8) * 8];
  out[blockIdx.x * blockDim.x + threadIdx.x] = a + b + c;
}

void runShared(const float* in, float* out, int blocks, int threads) {
  sharedQuads<<<blocks, threads>>>(in, out);
}

int main() {
  const int n = 1 << 20;
  float *in, *out;
  double* d;
  CK(cudaMalloc(&in, n * sizeof(float)));
  CK(cudaMalloc(&out, n * sizeof(float)));
  CK(cudaMalloc(&d, n * sizeof(double)));
  CK(cudaMemset(in, 0, n * sizeof(float)));
  CK(cudaMemset(d, 0, n * sizeof(double)));

  broadcastForms<<<128, 256>>>(in, out);
  spreadGroups<<<64, 128>>>(in, d, out);   // (8191 / 4) * 32 < n
  runShared(in, out, 256, 64);              // 64 threads: sm index < 64 for all three
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(in)); CK(cudaFree(out)); CK(cudaFree(d));
  return 0;
}
