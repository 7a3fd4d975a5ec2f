// global_broadcast.cu: every lane reads the same element, scale[0]: one sector, the value
// is replicated to all lanes. Not a problem: eta = 100 % (ideal = 1 sector).
// Seed 000, table 2.1, row "Diffusion (a[0] partout): 1 sector, 100 %*"; seed 001
// "broadcast is not a conflict".
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

__global__ void scaleByFirst(const float* __restrict__ in, const float* __restrict__ scale, float* __restrict__ out,
                             int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = scale[0];  // expect: global load sectors=1 ideal=1 eta=1.00
    float v = in[i];  // expect: global load sectors=4 ideal=4 eta=1.00
    out[i] = s * v;  // expect: global store sectors=4 ideal=4 eta=1.00
  }
}

int main() {
  float *in = nullptr, *scale = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&scale, 4 * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, N * sizeof(float)));
  CUDA_CHECK(cudaMemset(in, 0, N * sizeof(float)));
  CUDA_CHECK(cudaMemset(scale, 0, 4 * sizeof(float)));

  scaleByFirst<<<64, 256>>>(in, scale, out, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(scale));
  CUDA_CHECK(cudaFree(out));
  std::printf("global_broadcast: ok\n");
  return 0;
}
