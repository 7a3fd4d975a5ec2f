// constant_and_local.cu: memory that is neither global nor shared. c_weights is a
// __constant__ array (read through the constant cache, every lane the same element: not a
// coalescing matter) and x[] is a thread-local array (registers or local memory, private to
// the thread). Neither gets figures or a finding; only the global accesses do: channel k of
// element i is in[k * n + i], contiguous across the warp, 4 sectors.
// Seed 002, "Loop unrolling ... #pragma unroll for (...) acc += a[i] * b[i]" with the
// coefficients in constant memory.
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

constexpr int TAPS = 8;
constexpr int N = 64 * 256;

__constant__ float c_weights[TAPS];

__global__ void weightedChannels(const float* __restrict__ in, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x[TAPS];  // thread-local array
#pragma unroll
    for (int k = 0; k < TAPS; ++k)
      x[k] = in[k * n + i];  // expect: global load sectors=4 ideal=4 eta=1.00
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < TAPS; ++k)
      acc += c_weights[k] * x[k];  // expect: none
    out[i] = acc;  // expect: global store sectors=4 ideal=4 eta=1.00
  }
}

int main() {
  const float weights[TAPS] = {0.05f, 0.1f, 0.15f, 0.2f, 0.2f, 0.15f, 0.1f, 0.05f};
  CUDA_CHECK(cudaMemcpyToSymbol(c_weights, weights, sizeof(weights)));

  float *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, TAPS * N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, N * sizeof(float)));
  CUDA_CHECK(cudaMemset(in, 0, TAPS * N * sizeof(float)));

  weightedChannels<<<64, 256>>>(in, out, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("constant_and_local: ok\n");
  return 0;
}
