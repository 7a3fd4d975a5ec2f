// barrier_divergent.cu: __syncthreads() inside `if (threadIdx.x < 64)` in a 256-thread block.
// Threads 64-255 never reach that barrier: every thread of a block must execute the same
// __syncthreads(), or none (seed 002, "un __syncthreads() place a l'interieur d'une branche
// divergente est une source classique de deadlock ou de comportement indefini"). The bad
// kernel stays runnable: the other threads have nothing after the branch and exit, and on
// sm_70 and later a barrier does not wait for threads that have exited, so the program
// terminates; the behaviour is still undefined by the CUDA programming guide.
// The good kernels: the same work with the barrier outside the branch (guard the work, not
// the barrier), and a barrier under a condition that is uniform over the block (blockIdx).
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
constexpr int HEAD = 64;
constexpr int N = 256 * BLOCK;

// Reverses the first 64 elements of each block's slice through shared memory.
__global__ void syncInBranch(float* data) {
  __shared__ float s[HEAD];
  int t = threadIdx.x;
  if (t < HEAD) {
    s[t] = data[blockIdx.x * BLOCK + t];  // expect: global load sectors=4 ideal=4 eta=1.00 ; shared store wavefronts=1 ideal=1 degree=1
    __syncthreads();  // expect-finding: barrier-in-divergent-code
    data[blockIdx.x * BLOCK + t] = s[HEAD - 1 - t];  // expect: shared load wavefronts=1 ideal=1 degree=1 ; global store sectors=4 ideal=4 eta=1.00
  }
}

__global__ void syncOutsideBranch(float* data) {
  __shared__ float s[HEAD];
  int t = threadIdx.x;
  if (t < HEAD) s[t] = data[blockIdx.x * BLOCK + t];  // expect: global load sectors=4 ideal=4 eta=1.00 ; shared store wavefronts=1 ideal=1 degree=1
  __syncthreads();
  if (t < HEAD) data[blockIdx.x * BLOCK + t] = s[HEAD - 1 - t];  // expect: shared load wavefronts=1 ideal=1 degree=1 ; global store sectors=4 ideal=4 eta=1.00
}

// Only even blocks reverse their slice: the condition is the same for every thread of a block.
__global__ void syncUnderBlockCondition(float* data) {
  __shared__ float s[BLOCK];
  int t = threadIdx.x;
  if (blockIdx.x % 2 == 0) {
    s[t] = data[blockIdx.x * BLOCK + t];  // expect: global load sectors=4 ideal=4 eta=1.00 ; shared store wavefronts=1 ideal=1 degree=1
    __syncthreads();
    data[blockIdx.x * BLOCK + t] = s[BLOCK - 1 - t];  // expect: shared load wavefronts=1 ideal=1 degree=1 ; global store sectors=4 ideal=4 eta=1.00
  }
}

int main() {
  float* data = nullptr;
  CUDA_CHECK(cudaMalloc(&data, N * sizeof(float)));
  CUDA_CHECK(cudaMemset(data, 0, N * sizeof(float)));

  syncInBranch<<<256, 256>>>(data);
  CUDA_CHECK(cudaGetLastError());
  syncOutsideBranch<<<256, 256>>>(data);
  CUDA_CHECK(cudaGetLastError());
  syncUnderBlockCondition<<<256, 256>>>(data);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(data));
  std::printf("barrier_divergent: ok\n");
  return 0;
}
