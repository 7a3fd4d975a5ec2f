// global_random_gather.cu: a gather through a random permutation, out[i] = values[idx[i]].
// The index load idx[i] is contiguous (4 sectors); the gathered address depends on data, so
// statically it lies anywhere between 1 and 32 sectors per request, and with a random
// permutation nearly every lane falls in a sector of its own (about 32, eta about 12.5 %).
// Seed 000, table 2.1, row "Aléatoire: ~32 sectors, 12.5 %" and cause 4 (indirection).
// The permutation is a fixed pseudo-random one built on the host (all indices valid).
#include <vector>
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

constexpr int N = 256 * 256;

__global__ void gather(const float* __restrict__ values, const int* __restrict__ idx, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int j = idx[i];  // expect: global load sectors=4 ideal=4 eta=1.00
    float v = values[j];  // expect: global load pattern=indirect sectors=1..32 !scattered-indirect-access
    out[i] = v;  // expect: global store sectors=4 ideal=4 eta=1.00
  }
}

int main() {
  // Fisher-Yates shuffle driven by a fixed linear congruential generator.
  std::vector<int> perm(N);
  for (int k = 0; k < N; ++k) perm[k] = k;
  unsigned state = 12345u;
  for (int k = N - 1; k > 0; --k) {
    state = state * 1664525u + 1013904223u;
    int r = static_cast<int>(state % static_cast<unsigned>(k + 1));
    int t = perm[k];
    perm[k] = perm[r];
    perm[r] = t;
  }

  float *values = nullptr, *out = nullptr;
  int* idx = nullptr;
  CUDA_CHECK(cudaMalloc(&values, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&idx, N * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&out, N * sizeof(float)));
  CUDA_CHECK(cudaMemset(values, 0, N * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(idx, perm.data(), N * sizeof(int), cudaMemcpyHostToDevice));

  gather<<<256, 256>>>(values, idx, out, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(values));
  CUDA_CHECK(cudaFree(idx));
  CUDA_CHECK(cudaFree(out));
  std::printf("global_random_gather: ok\n");
  return 0;
}
