// global_float4.cu: a contiguous float4 access, 16 bytes per lane: 32 x 16 = 512 contiguous bytes per warp,
// 16 sectors per request, all of them useful (ideal = 16, eta = 100 %).
// Field notes §2 (H200): "float4 a[i]: 16 sectors (eta = 100 %)"; seed 000 cause 3, vectorised float4 accesses.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                  \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

constexpr int N = 64 * 256;

__global__ void scaleRgba(const float4* __restrict__ in, float4* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 v = in[i];  // expect: global load sectors=16 ideal=16 eta=1.00
    v.x *= 0.5f;
    v.y *= 0.5f;
    v.z *= 0.5f;
    out[i] = v;  // expect: global store sectors=16 ideal=16 eta=1.00
  }
}

int main() {
  float4 *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, N * sizeof(float4)));
  CUDA_CHECK(cudaMalloc(&out, N * sizeof(float4)));
  CUDA_CHECK(cudaMemset(in, 0, N * sizeof(float4)));

  scaleRgba<<<64, 256>>>(in, out, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("global_float4: ok\n");
  return 0;
}
