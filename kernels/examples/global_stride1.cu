// global_stride1.cu: the perfect case. Lane k of a warp reads float k of a contiguous,
// 256-byte aligned buffer: 32 x 4 bytes = 128 contiguous bytes = 4 sectors per request.
// Seed 000, table 2.1, row "Contigu aligné (a[i])": 4 sectors, eta = 100 %.
// Seed 001, "Coalesced: lane k reads word k".
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

__global__ void scaleContiguous(const float* __restrict__ in, float* __restrict__ out, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = in[i];  // expect: global load sectors=4 ideal=4 eta=1.00
    out[i] = factor * v;  // expect: global store sectors=4 ideal=4 eta=1.00
  }
}

int main() {
  float *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, N * sizeof(float)));
  CUDA_CHECK(cudaMemset(in, 0, N * sizeof(float)));

  scaleContiguous<<<64, 256>>>(in, out, 2.0f, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("global_stride1: ok\n");
  return 0;
}
