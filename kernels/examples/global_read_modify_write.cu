// global_read_modify_write.cu: in-place updates. a[i] += b[i] is one load and one store of
// a[i] plus the load of b[i]: three contiguous requests of 4 sectors each.
//  - accumulate: a[i] += b[i].
//  - accumulateEven: a[2 * i] += b[i], the update of every other element: the load and the
//    store of a both touch 8 sectors for 4 useful ones.
// Seed 000 §2.1 (table rows "a[i]" and "Pas de 2"), applied to a read-modify-write.
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

__global__ void accumulate(float* __restrict__ a, const float* __restrict__ b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += b[i];  // expect: global load sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00 ; global store sectors=4 ideal=4 eta=1.00
}

__global__ void accumulateEven(float* __restrict__ a, const float* __restrict__ b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float bv = b[i];  // expect: global load sectors=4 ideal=4 eta=1.00
    a[2 * i] += bv;  // expect: global load sectors=8 ideal=4 eta=0.50 !uncoalesced-global-access ; global store sectors=8 ideal=4 eta=0.50 !uncoalesced-global-access
  }
}

int main() {
  float *a = nullptr, *b = nullptr;
  CUDA_CHECK(cudaMalloc(&a, 2 * N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&b, N * sizeof(float)));
  CUDA_CHECK(cudaMemset(a, 0, 2 * N * sizeof(float)));
  CUDA_CHECK(cudaMemset(b, 0, N * sizeof(float)));

  for (int step = 0; step < 1000; ++step) accumulate<<<64, 256>>>(a, b, N);  // a program's steps: once, it wastes less than a launch costs (MinWastePerRun)
  CUDA_CHECK(cudaGetLastError());
  for (int step = 0; step < 1000; ++step) accumulateEven<<<64, 256>>>(a, b, N);  // a program's steps: once, it wastes less than a launch costs (MinWastePerRun)
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(a));
  CUDA_CHECK(cudaFree(b));
  std::printf("global_read_modify_write: ok\n");
  return 0;
}
