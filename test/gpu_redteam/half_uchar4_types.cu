// Narrow element types: __half contiguous and at stride 3, __half2 contiguous, uchar4
// contiguous loads with a stride-2 uchar4 store, short stores at stride 2, and signed char
// loads at offset +1. 1D grids with 256-thread blocks (the half2 kernel uses 64).
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int N = 1 << 16;   // threads launched per kernel

__global__ void halfToFloat(const __half* __restrict__ h, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __half v = h[i];
  out[i] = __half2float(v);
}

__global__ void halfStride3(const __half* __restrict__ h, __half* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __half v = h[3 * i];
  out[i] = __hadd(v, v);
}

__global__ void half2Scale(const __half2* __restrict__ h, __half2* __restrict__ out, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __half2 v = h[i];
  __half2 k = __float2half2_rn(s);
  out[i] = __hmul2(v, k);
}

__global__ void rgbaSpread(const uchar4* __restrict__ px, uchar4* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  uchar4 p = px[i];
  uchar4 q = make_uchar4(p.z, p.y, p.x, 255);
  out[2 * i] = q;
}

__global__ void shortsEveryOther(const int* __restrict__ in, short* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  out[2 * i] = (short)(v & 0x7fff);
}

__global__ void charNeighbour(const signed char* __restrict__ c, int* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    signed char v = c[i + 1];
    out[i] = v;
  }
}

int main() {
  const size_t bytes = (size_t)N * 8 + 64;  // covers uchar4 at 2*i and half at 3*i
  char *a, *b;
  CK(cudaMalloc(&a, bytes));
  CK(cudaMalloc(&b, bytes));
  CK(cudaMemset(a, 0, bytes));

  halfToFloat<<<N / 256, 256>>>((const __half*)a, (float*)b);
  halfStride3<<<N / 256, 256>>>((const __half*)a, (__half*)b);
  half2Scale<<<N / 64, 64>>>((const __half2*)a, (__half2*)b, 2.0f);
  rgbaSpread<<<N / 256, 256>>>((const uchar4*)a, (uchar4*)b);
  shortsEveryOther<<<N / 256, 256>>>((const int*)a, (short*)b);
  charNeighbour<<<N / 256, 256>>>((const signed char*)a, (int*)b, N - 7);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(a));
  CK(cudaFree(b));
  return 0;
}
