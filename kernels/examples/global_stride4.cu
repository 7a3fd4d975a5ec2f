// global_stride4.cu: a float read at a stride of 4 elements, a[4 * i]: keep one sample in four (decimation by 4).
// Lanes are 16 bytes apart, so the warp touches 16 sectors for 4 sectors of useful data.
// Seed 000, table 2.1, row "Pas de 4 (a[4i])": 16 sectors, eta = 25 %.
// The contiguous store is the control: 4 sectors, eta = 100 %.
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
constexpr int STRIDE = 4;

__global__ void decimate4(const float* __restrict__ in, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = in[STRIDE * i];  // expect: global load sectors=16 ideal=4 eta=0.25 !uncoalesced-global-access
    out[i] = v;  // expect: global store sectors=4 ideal=4 eta=1.00
  }
}

int main() {
  float *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, STRIDE * N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, N * sizeof(float)));
  CUDA_CHECK(cudaMemset(in, 0, STRIDE * N * sizeof(float)));

  for (int step = 0; step < 1000; ++step) decimate4<<<64, 256>>>(in, out, N);  // a program's steps: once, it wastes less than a launch costs (MinWastePerRun)
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("global_stride4: ok\n");
  return 0;
}
