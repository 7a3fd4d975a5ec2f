// reinterpret_cast vector loads/stores from scalar arrays: float2 contiguous, int2 at a
// stride of two vectors, double2 contiguous, int4 at a stride of three vectors (48 B), and
// a float4 load split into four scalar stores (one per line). 1D grids, 128/256 threads.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int N = 1 << 15;   // threads launched per kernel

__global__ void sumPairs(const float* __restrict__ in, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float2 p = reinterpret_cast<const float2*>(in)[i];
  out[i] = p.x + p.y;
}

__global__ void evenInt2(const int* __restrict__ in, int* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int2 p = reinterpret_cast<const int2*>(in)[2 * i];
  reinterpret_cast<int2*>(out)[i] = make_int2(p.y, p.x);
}

__global__ void scaleDouble2(const double* __restrict__ in, double* __restrict__ out, double s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double2 d = reinterpret_cast<const double2*>(in)[i];
  d.x *= s;
  d.y *= s;
  reinterpret_cast<double2*>(out)[i] = d;
}

__global__ void everyThirdInt4(const int* __restrict__ in, int* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int4* v = reinterpret_cast<const int4*>(in);
  int4 q = v[3 * i];
  out[i] = q.x ^ q.y ^ q.z ^ q.w;
}

__global__ void unpackFloat4(const float* __restrict__ in, float* __restrict__ x, float* __restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 q = reinterpret_cast<const float4*>(in)[i];
  x[4 * i + 0] = q.x;
  x[4 * i + 1] = q.y;
  x[4 * i + 2] = q.z;
  x[4 * i + 3] = q.w;
  y[i] = q.x - q.w;
}

int main() {
  const size_t bytes = (size_t)N * 48 + 256;   // large enough for the int4 stride-3 view
  char *a, *b, *c;
  CK(cudaMalloc(&a, bytes));
  CK(cudaMalloc(&b, bytes));
  CK(cudaMalloc(&c, bytes));
  CK(cudaMemset(a, 0, bytes));

  sumPairs<<<N / 256, 256>>>((const float*)a, (float*)b);
  evenInt2<<<N / 256, 256>>>((const int*)a, (int*)b);
  scaleDouble2<<<N / 128, 128>>>((const double*)a, (double*)b, 0.5);
  everyThirdInt4<<<N / 256, 256>>>((const int*)a, (int*)b);
  unpackFloat4<<<N / 256, 256>>>((const float*)a, (float*)b, (float*)c);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(a));
  CK(cudaFree(b));
  CK(cudaFree(c));
  return 0;
}
