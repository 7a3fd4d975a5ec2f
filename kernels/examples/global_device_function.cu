// global_device_function.cu: accesses inside __device__ helpers called from the kernel; the
// lane pattern comes from the argument the kernel passes.
//  - loadClamped(in, i): the helper reads p[i] with i = the global thread index: 4 sectors.
//  - rowStart(m, i, width): the helper reads m[row * width] with row = the thread index and
//    width = 64 (a literal at the launch): lanes 256 bytes apart, 32 sectors, eta = 12.5 %.
//  - storeScaled(out, i, ...): contiguous store, 4 sectors.
// Seed 000 §2.6, step 1 ("quand threadIdx.x augmente de 1, de combien augmente l'adresse ?"),
// asked through a function call; the strided read is table 2.1 row "Pas >= 8".
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
constexpr int WIDTH = 64;

__device__ __forceinline__ float loadClamped(const float* p, int i) {
  float v = p[i];  // expect: global load sectors=4 ideal=4 eta=1.00
  return fminf(fmaxf(v, 0.0f), 1.0f);
}

__device__ float rowStart(const float* m, int row, int width) {
  return m[row * width];  // expect: global load sectors=32 ideal=4 eta=0.12 !uncoalesced-global-access
}

__device__ void storeScaled(float* p, int i, float v, float s) {
  p[i] = v * s;  // expect: global store sectors=4 ideal=4 eta=1.00
}

__global__ void weighByRowStart(const float* __restrict__ in, const float* __restrict__ m, float* __restrict__ out,
                                int n, int width) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float a = loadClamped(in, i);
    float b = rowStart(m, i, width);
    storeScaled(out, i, a, b);
  }
}

int main() {
  float *in = nullptr, *m = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&m, N * WIDTH * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, N * sizeof(float)));
  CUDA_CHECK(cudaMemset(in, 0, N * sizeof(float)));
  CUDA_CHECK(cudaMemset(m, 0, N * WIDTH * sizeof(float)));

  for (int step = 0; step < 1000; ++step) weighByRowStart<<<64, 256>>>(in, m, out, N, 64);  // a program's steps: once, it wastes less than a launch costs (MinWastePerRun)
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(m));
  CUDA_CHECK(cudaFree(out));
  std::printf("global_device_function: ok\n");
  return 0;
}
