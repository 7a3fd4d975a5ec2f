// shared_double.cu: 64-bit shared-memory accesses. A double spans two banks, and the
// hardware serves a 64-bit request in two half-warp phases; conflicts count only inside a
// phase, so the conflict-free minimum is 2 wavefronts (ideal = 2, degree 1).
//  - s[t] (the two stores, contiguous): each half-warp covers 32 banks once, 2 wavefronts.
//  - s[2 * t] (keep the even elements): a half-warp's 16 doubles span 256 bytes, every bank
//    holds two of its words: 2 wavefronts per phase, 4 in all, degree 2.
// Seed 000 §2.3, "Le cas des types larges: un double occupe deux bancs ... le matériel
// découpe la transaction en deux phases"; field notes §2 (64-bit: two half-warp phases).
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
constexpr int N = 64 * BLOCK;  // outputs; the input holds 2 * N doubles

__global__ void keepEven(const double* __restrict__ in, double* __restrict__ out, int n) {
  __shared__ double s[2 * BLOCK];
  int tid = threadIdx.x;
  int base = 2 * blockIdx.x * BLOCK;
  double lo = in[base + tid];  // expect: global load sectors=8 ideal=8 eta=1.00
  double hi = in[base + BLOCK + tid];  // expect: global load sectors=8 ideal=8 eta=1.00
  s[tid] = lo;  // expect: shared store wavefronts=2 ideal=2 degree=1
  s[BLOCK + tid] = hi;  // expect: shared store wavefronts=2 ideal=2 degree=1
  __syncthreads();
  double even = s[2 * tid];  // expect: shared load wavefronts=4 ideal=2 degree=2 !wide-shared-access-conflict
  int i = blockIdx.x * BLOCK + tid;
  if (i < n) out[i] = even;  // expect: global store sectors=8 ideal=8 eta=1.00
}

int main() {
  double *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, 2 * N * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&out, N * sizeof(double)));
  CUDA_CHECK(cudaMemset(in, 0, 2 * N * sizeof(double)));

  keepEven<<<64, 256>>>(in, out, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("shared_double: ok\n");
  return 0;
}
