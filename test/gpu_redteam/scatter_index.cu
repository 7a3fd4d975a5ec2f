// Scatters and gathers through host-built index arrays: a full-range permutation scatter
// (i * 7919) % n (block 256), a transpose-like indirect scatter (lanes 1024 floats apart,
// block 96), a computed warp-reversed scatter, and a float2 gather through (i * 7919) % n.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int N = 1 << 15;

__global__ void scatterPerm(const float* __restrict__ in, const int* __restrict__ idx, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int d = idx[i];
    float v = in[i];
    out[d] = v;
  }
}

__global__ void scatterTransposeIdx(const float* __restrict__ in, const int* __restrict__ idx, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int d = idx[i];
    float v = in[i];
    out[d] = v;
  }
}

__global__ void scatterWarpReversed(const float* __restrict__ in, float* __restrict__ out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  out[(i & ~31u) + (31u - (i & 31u))] = v;
}

__global__ void gatherFloat2(const float2* __restrict__ table, const int* __restrict__ idx, float2* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int s = idx[i];
    float2 v = table[s];
    out[i] = v;
  }
}

int main() {
  std::vector<int> perm(N), tr(N);
  for (int i = 0; i < N; ++i) {
    perm[i] = (int)(((long long)i * 7919) % N);
    tr[i] = (i % 32) * (N / 32) + i / 32;
  }
  int *dPerm, *dTr;
  float *in, *out;
  float2 *t2, *o2;
  CK(cudaMalloc(&dPerm, N * sizeof(int)));
  CK(cudaMalloc(&dTr, N * sizeof(int)));
  CK(cudaMalloc(&in, N * sizeof(float)));
  CK(cudaMalloc(&out, N * sizeof(float)));
  CK(cudaMalloc(&t2, N * sizeof(float2)));
  CK(cudaMalloc(&o2, N * sizeof(float2)));
  CK(cudaMemcpy(dPerm, perm.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dTr, tr.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemset(in, 0, N * sizeof(float)));
  CK(cudaMemset(t2, 0, N * sizeof(float2)));

  scatterPerm<<<N / 256, 256>>>(in, dPerm, out, N);
  scatterTransposeIdx<<<(N + 95) / 96, 96>>>(in, dTr, out, N);
  scatterWarpReversed<<<N / 128, 128>>>(in, out);
  gatherFloat2<<<N / 256, 256>>>(t2, dPerm, o2, N);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(dPerm)); CK(cudaFree(dTr));
  CK(cudaFree(in)); CK(cudaFree(out)); CK(cudaFree(t2)); CK(cudaFree(o2));
  return 0;
}
