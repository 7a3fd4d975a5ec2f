// 64-bit and 128-bit shared accesses (block 128): double row d[tid], double stride 2,
// double column of a [32][32] and a padded [32][33] tile, double broadcast, float4 row,
// float4 stride 2, float4 broadcast, float2 pair swap, and a float4 view of a float4 array
// written through a scalar float* alias at stride 4.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int TPB = 128;

__global__ void sharedDouble(const double* __restrict__ in, double* __restrict__ out) {
  __shared__ double d[2 * TPB];
  __shared__ double t32[32][32];
  __shared__ double t33[32][33];
  int tid = threadIdx.x;
  int lane = tid & 31, w = tid >> 5;
  d[tid] = in[blockIdx.x * TPB + tid];
  d[tid + TPB] = 1.0;
  for (int r = w; r < 32; r += TPB / 32) {
    t32[r][lane] = 2.0;
    t33[r][lane] = 3.0;
  }
  __syncthreads();
  double a = d[tid];
  double b = d[2 * tid];
  double c = t32[lane][w];
  double e = t33[lane][w];
  double f = d[0];
  out[blockIdx.x * TPB + tid] = a + b + c + e + f;
}

__global__ void sharedVec(const float4* __restrict__ in, float4* __restrict__ out) {
  __shared__ float4 v[2 * TPB];
  __shared__ float2 p[TPB];
  int tid = threadIdx.x;
  v[tid] = in[blockIdx.x * TPB + tid];
  float* flat = reinterpret_cast<float*>(v + TPB);
  flat[4 * tid] = 1.0f;
  flat[4 * tid + 1] = 2.0f;
  flat[4 * tid + 2] = 3.0f;
  flat[4 * tid + 3] = 4.0f;
  p[tid] = make_float2((float)tid, 0.0f);
  __syncthreads();
  float4 a = v[tid];
  float4 b = v[2 * tid];
  float4 c = v[7];
  float2 q = p[tid ^ 1];
  out[blockIdx.x * TPB + tid] = make_float4(a.x + b.x + c.x + q.x, a.y + b.y, a.z + q.y, a.w + b.w);
}

int main() {
  const int blocks = 256;
  double *din, *dout;
  float4 *fin, *fout;
  CK(cudaMalloc(&din, blocks * TPB * sizeof(double)));
  CK(cudaMalloc(&dout, blocks * TPB * sizeof(double)));
  CK(cudaMalloc(&fin, blocks * TPB * sizeof(float4)));
  CK(cudaMalloc(&fout, blocks * TPB * sizeof(float4)));
  CK(cudaMemset(din, 0, blocks * TPB * sizeof(double)));
  CK(cudaMemset(fin, 0, blocks * TPB * sizeof(float4)));

  sharedDouble<<<blocks, TPB>>>(din, dout);
  sharedVec<<<blocks, TPB>>>(fin, fout);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(din)); CK(cudaFree(dout)); CK(cudaFree(fin)); CK(cudaFree(fout));
  return 0;
}
