// Index arithmetic through (size_t) casts, int64 products, shifts (i << 2), masks (i & ~31,
// (i & 31) * 32 + (i >> 5)), and divides/modulo by powers of two (i / 4, i % 8 on unsigned).
// Launches: 256 x 256, 1024 x 64, 128 x 128, 64 x 256, 32 x 1024.
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void sizeTShift(const float* __restrict__ in, float* __restrict__ out) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i << 2];
  out[i] = v;
}

__global__ void int64RowProduct(const float* __restrict__ in, float* __restrict__ out, int ld) {
  int64_t row = (int64_t)blockIdx.x * (int64_t)ld;
  float v = in[row + threadIdx.x];
  out[(int64_t)blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void maskWarpBase(const float* __restrict__ in, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = in[i & ~31];
  float b = in[(i & ~7) + 3];
  out[i] = a + b;
}

__global__ void divAndMod(const float* __restrict__ in, float* __restrict__ out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = in[i / 4u];
  float b = in[(i / 8u) * 64u + (i % 8u)];
  out[i] = a + b;
}

__global__ void maskTranspose(const float* __restrict__ in, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int hi = i & ~1023;
  int j = hi + (i & 31) * 32 + ((i >> 5) & 31);
  float v = in[j];
  out[(unsigned)i] = v;
}

int main() {
  const int n = 1 << 20;
  float *in, *out;
  CK(cudaMalloc(&in, n * sizeof(float)));
  CK(cudaMalloc(&out, n * sizeof(float)));
  CK(cudaMemset(in, 0, n * sizeof(float)));

  sizeTShift<<<256, 256>>>(in, out);          // 65536 threads, reads up to 4 * 65535
  int ld = 1000;
  int64RowProduct<<<1024, 64>>>(in, out, ld); // 1023 * 1000 + 63 < n
  maskWarpBase<<<128, 128>>>(in, out);
  divAndMod<<<64, 256>>>(in, out);            // (16383 / 8) * 64 + 7 < n
  maskTranspose<<<32, 1024>>>(in, out);       // i < 32768
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(in)); CK(cudaFree(out));
  return 0;
}
