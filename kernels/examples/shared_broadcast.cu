// shared_broadcast.cu: every lane reads the same shared word, s[0]. Lanes that read the
// same 4-byte word never conflict: the bank serves it once and the value is broadcast,
// 1 wavefront. Each block subtracts its first element from all of its elements.
// Seed 000 §2.3, table row "s[0]: banc 0, aucun (diffusion)"; seed 001 "broadcast is not
// a conflict".
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
constexpr int N = 64 * BLOCK;

__global__ void subtractBlockFirst(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float s[BLOCK];
  int tid = threadIdx.x;
  int i = blockIdx.x * BLOCK + tid;
  float v = (i < n) ? in[i] : 0.0f;  // expect: global load sectors=4 ideal=4 eta=1.00
  s[tid] = v;  // expect: shared store wavefronts=1 ideal=1 degree=1
  __syncthreads();
  float first = s[0];  // expect: shared load wavefronts=1 ideal=1 degree=1
  if (i < n) out[i] = v - first;  // expect: global store sectors=4 ideal=4 eta=1.00
}

int main() {
  float *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, N * sizeof(float)));
  CUDA_CHECK(cudaMemset(in, 0, N * sizeof(float)));

  subtractBlockFirst<<<64, 256>>>(in, out, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("shared_broadcast: ok\n");
  return 0;
}
