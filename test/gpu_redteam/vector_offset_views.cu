// Vector-typed views whose base pointer is shifted by one vector element on the host
// (float4 +16 B, double2 +16 B, float2 +8 B, int4 +16 B), a float view shifted by one float,
// and a reinterpret_cast<const float4*>(in + off) with a runtime float offset (off = 4).
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int N = 1 << 16;   // vector elements processed per kernel

__global__ void copyF4(const float4* __restrict__ in, float4* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 v = in[i];
    out[i] = v;
  }
}

__global__ void copyD2(const double2* __restrict__ in, double2* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double2 v = in[i];
    out[i] = make_double2(v.y, v.x);
  }
}

__global__ void copyF2(const float2* __restrict__ in, float2* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float2 v = in[i];
    out[i] = v;
  }
}

__global__ void addI4(const int4* __restrict__ in, int4* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int4 v = in[i];
    out[i] = make_int4(v.x + 1, v.y + 1, v.z + 1, v.w + 1);
  }
}

__global__ void copyScalarShifted(const float* __restrict__ in, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = in[i];
    out[i] = v;
  }
}

__global__ void vec4FromOffset(const float* __restrict__ in, float* __restrict__ out, int off, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = reinterpret_cast<const float4*>(in + off)[i];
    out[i] = v.x + v.y + v.z + v.w;
  }
}

int main() {
  // Every buffer holds N + 2 vector elements (16 B each) so a shift of one element stays in bounds.
  const size_t bytes = (size_t)(N + 2) * 16;
  char *a, *b;
  CK(cudaMalloc(&a, bytes));
  CK(cudaMalloc(&b, bytes));
  CK(cudaMemset(a, 0, bytes));
  CK(cudaMemset(b, 0, bytes));

  copyF4<<<N / 256, 256>>>(reinterpret_cast<const float4*>(a) + 1, reinterpret_cast<float4*>(b), N);
  copyD2<<<N / 256, 256>>>(reinterpret_cast<const double2*>(a) + 1, reinterpret_cast<double2*>(b) + 1, N);
  copyF2<<<N / 128, 128>>>(reinterpret_cast<const float2*>(a) + 1, reinterpret_cast<float2*>(b), N);
  addI4<<<N / 256, 256>>>(reinterpret_cast<const int4*>(a), reinterpret_cast<int4*>(b) + 1, N);
  copyScalarShifted<<<N / 256, 256>>>(reinterpret_cast<const float*>(a) + 1, reinterpret_cast<float*>(b) + 1, N);
  vec4FromOffset<<<N / 256, 256>>>(reinterpret_cast<const float*>(a), reinterpret_cast<float*>(b), 4, N);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(a));
  CK(cudaFree(b));
  return 0;
}
