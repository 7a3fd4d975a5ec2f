// global_atomics.cu: global atomics, counted like other global requests (sectors touched
// by the warp's lanes).
//  - countPerElement: atomicAdd(&hist[i], 1), one counter per thread, contiguous:
//    4 sectors, eta = 100 %.
//  - countPerLaneClass: atomicAdd(&hist[threadIdx.x % 8], 1), four lanes on each of 8
//    counters: 32 bytes, 1 sector, eta = 100 %. The contention (same address) serialises
//    in L2 but wastes no sector bandwidth: not a coalescing problem.
// Seed 000 §2.1 (sectors per warp request) applied to read-modify-write atomics.
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
constexpr int CLASSES = 8;

__global__ void countPerElement(int* __restrict__ hist, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&hist[i], 1);  // expect: global atomic sectors=4 ideal=4 eta=1.00
}

__global__ void countPerLaneClass(int* __restrict__ hist, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&hist[threadIdx.x % CLASSES], 1);  // expect: global atomic sectors=1 ideal=1 eta=1.00
}

int main() {
  int *perElement = nullptr, *perClass = nullptr;
  CUDA_CHECK(cudaMalloc(&perElement, N * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&perClass, CLASSES * sizeof(int)));
  CUDA_CHECK(cudaMemset(perElement, 0, N * sizeof(int)));
  CUDA_CHECK(cudaMemset(perClass, 0, CLASSES * sizeof(int)));

  countPerElement<<<64, 256>>>(perElement, N);
  CUDA_CHECK(cudaGetLastError());
  countPerLaneClass<<<64, 256>>>(perClass, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(perElement));
  CUDA_CHECK(cudaFree(perClass));
  std::printf("global_atomics: ok\n");
  return 0;
}
