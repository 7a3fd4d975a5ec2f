// divergence_parity.cu: `if (threadIdx.x % 2)` sends the odd lanes of every warp down one
// path and the even lanes down the other. In a 256-thread block all 8 warps split, on every
// launch: each warp runs both paths one after the other with half of its lanes masked off,
// so the branch costs the sum of the two paths (seed 002, "Divergence de warps": "des
// branches basees sur la parite de l'indice de thread"). The load and the store sit outside
// the branch and stay coalesced: the finding is about the branch alone.
// The warp-uniform version is divergence_warp_aligned.cu.
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

__global__ void parityBranch(const float* __restrict__ in, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];  // expect: global load sectors=4 ideal=4 eta=1.00
  float r = 0.0f;
  if (threadIdx.x % 2) {  // expect-finding: divergent-branch
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

  parityBranch<<<256, 256>>>(in, out);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("divergence_parity: ok\n");
  return 0;
}
