// Dynamic shared memory carved into several arrays: extern __shared__ float smem[]; a = smem,
// b = smem + K, int ix[] after the floats (reversed, stride-4 and index-gathered reads);
// double/short arrays placed after a float array; and a 2D tile with a runtime leading dim 33.
// Launches: 256 x 256 (K=256, 3 KB), 128 x 128 (K=128), dim3(32,32) x dim3(32,32) (ld=33).
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void splitArrays(const float* __restrict__ A, const float* __restrict__ B,
                            const int* __restrict__ idx, float* __restrict__ out, int K) {
  extern __shared__ float smem[];
  float* a = smem;
  float* b = smem + K;
  int* ix = (int*)(b + K);
  int tid = threadIdx.x;
  a[tid] = A[blockIdx.x * K + tid];
  b[tid] = B[blockIdx.x * K + tid];
  ix[tid] = idx[tid];
  __syncthreads();
  float r = a[tid];
  r *= b[K - 1 - tid];
  r += b[(tid * 4) % K];
  int j = ix[tid];
  r += a[j];
  out[blockIdx.x * K + tid] = r;
}

__global__ void mixedTypes(const float* __restrict__ in, float* __restrict__ out, int K) {
  extern __shared__ float buf[];
  float* f = buf;
  double* d = (double*)(f + K);
  short* s = (short*)(d + K);
  int tid = threadIdx.x;
  float v = in[blockIdx.x * K + tid];
  f[tid] = v;
  d[tid] = (double)v;
  s[tid] = (short)tid;
  __syncthreads();
  float r = f[(tid + 1) % K];
  double dv = d[K - 1 - tid];
  short sv = s[tid ^ 1];
  out[blockIdx.x * K + tid] = r + (float)dv + sv;
}

__global__ void tileRuntimeLd(const float* __restrict__ in, float* __restrict__ out, int n, int ld) {
  extern __shared__ float t[];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  t[threadIdx.y * ld + threadIdx.x] = in[y * n + x];
  __syncthreads();
  int ox = blockIdx.y * 32 + threadIdx.x;
  int oy = blockIdx.x * 32 + threadIdx.y;
  out[oy * n + ox] = t[threadIdx.x * ld + threadIdx.y];
}

int main() {
  const int K = 256, blocks = 256;
  const int K2 = 128, blocks2 = 128;
  const int n = 1024, ld = 33;
  std::vector<int> hidx(K);
  for (int t = 0; t < K; ++t) hidx[t] = (t % 32) * 8 + t / 32;
  float *A, *B, *out, *img, *img2;
  int* idx;
  CK(cudaMalloc(&A, blocks * K * sizeof(float)));
  CK(cudaMalloc(&B, blocks * K * sizeof(float)));
  CK(cudaMalloc(&out, blocks * K * sizeof(float)));
  CK(cudaMalloc(&idx, K * sizeof(int)));
  CK(cudaMalloc(&img, n * n * sizeof(float)));
  CK(cudaMalloc(&img2, n * n * sizeof(float)));
  CK(cudaMemset(A, 0, blocks * K * sizeof(float)));
  CK(cudaMemset(B, 0, blocks * K * sizeof(float)));
  CK(cudaMemset(img, 0, n * n * sizeof(float)));
  CK(cudaMemcpy(idx, hidx.data(), K * sizeof(int), cudaMemcpyHostToDevice));

  size_t shSplit = 2 * K * sizeof(float) + K * sizeof(int);
  splitArrays<<<blocks, K, shSplit>>>(A, B, idx, out, K);
  size_t shMixed = K2 * (sizeof(float) + sizeof(double) + sizeof(short));
  mixedTypes<<<blocks2, K2, shMixed>>>(A, out, K2);
  dim3 tb(32, 32);
  dim3 tg(n / 32, n / 32);
  tileRuntimeLd<<<tg, tb, 32 * ld * sizeof(float)>>>(img, img2, n, ld);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(A)); CK(cudaFree(B)); CK(cudaFree(out)); CK(cudaFree(idx));
  CK(cudaFree(img)); CK(cudaFree(img2));
  return 0;
}
