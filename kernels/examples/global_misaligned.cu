// global_misaligned.cu: a sub-view that starts 4 bytes into a 256-byte aligned allocation,
// base = in + 1. Each warp's 128 contiguous bytes straddle one more sector: 5 instead of 4,
// eta = 80 %. The loss comes only from the base offset (the lane stride is perfect).
// Seed 000, table 2.1, row "Contigu non aligné: 5 sectors, 80 %", and cause 3
// (désalignement: "float* base = donnees + 1; float x = base[i];").
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

__global__ void copyShifted(const float* __restrict__ in, float* __restrict__ out, int n) {
  const float* base = in + 1;  // a view that skips a one-float header
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = base[i];  // expect: global load sectors=5 ideal=4 eta=0.80 !misaligned-global-access
    out[i] = v;  // expect: global store sectors=4 ideal=4 eta=1.00
  }
}

int main() {
  float *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, (N + 1) * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, N * sizeof(float)));
  CUDA_CHECK(cudaMemset(in, 0, (N + 1) * sizeof(float)));

  copyShifted<<<64, 256>>>(in, out, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("global_misaligned: ok\n");
  return 0;
}
