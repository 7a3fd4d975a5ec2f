// global_float2.cu: a contiguous float2 access, 8 bytes per lane: 32 x 8 = 256 contiguous bytes per warp,
// 8 sectors per request, all of them useful (ideal = 8, eta = 100 %).
// A complex-number stream (re, im): two floats per lane in one 64-bit access; seed 000 "Le cas des types larges".
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

__global__ void conjugate(const float2* __restrict__ in, float2* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float2 v = in[i];  // expect: global load sectors=8 ideal=8 eta=1.00
    v.y = -v.y;
    out[i] = v;  // expect: global store sectors=8 ideal=8 eta=1.00
  }
}

int main() {
  float2 *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, N * sizeof(float2)));
  CUDA_CHECK(cudaMalloc(&out, N * sizeof(float2)));
  CUDA_CHECK(cudaMemset(in, 0, N * sizeof(float2)));

  conjugate<<<64, 256>>>(in, out, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("global_float2: ok\n");
  return 0;
}
