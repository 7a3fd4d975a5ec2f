// divergence_warp_aligned.cu: conditions that whole warps agree on. In a 256-thread block
// `if (threadIdx.x < 32)` keeps warp 0 and skips warps 1-7, and `if ((threadIdx.x / 32) % 2)`
// alternates whole warps between the two paths: no warp splits, each warp runs one path
// (seed 002: "restructurer les conditions pour qu'elles soient uniformes a l'echelle du
// warp"). Compare divergence_parity.cu, where `threadIdx.x % 2` splits every warp.
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

constexpr int BLOCK = 256;
constexpr int N = 256 * BLOCK;

__global__ void firstWarpOnly(const float* __restrict__ in, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];  // expect: global load sectors=4 ideal=4 eta=1.00
  if (threadIdx.x < 32) {
    for (int k = 0; k < 16; ++k) v += sinf(v + k);
  }
  out[i] = v;  // expect: global store sectors=4 ideal=4 eta=1.00
}

__global__ void alternateWarps(const float* __restrict__ in, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];  // expect: global load sectors=4 ideal=4 eta=1.00
  float r = 0.0f;
  if ((threadIdx.x / 32) % 2) {
    for (int k = 0; k < 16; ++k) r += sinf(v + k);
  } else {
    for (int k = 0; k < 16; ++k) r += cosf(v - k);
  }
  out[i] = r;  // expect: global store sectors=4 ideal=4 eta=1.00
}

int main() {
  float *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, N * sizeof(float)));
  CUDA_CHECK(cudaMemset(in, 0, N * sizeof(float)));

  firstWarpOnly<<<256, 256>>>(in, out);
  CUDA_CHECK(cudaGetLastError());
  alternateWarps<<<256, 256>>>(in, out);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("divergence_warp_aligned: ok\n");
  return 0;
}
