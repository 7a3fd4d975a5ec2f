// global_template_kernel.cu: one template kernel instantiated twice, for float and for
// double. The same source lines carry one figure per instantiation: 4 sectors per request
// for float (128 bytes per warp), 8 for double (256 bytes); both fully efficient.
// Seed 000 §2.1 (sectors = bytes per warp / 32 for contiguous data) and "Le cas des types
// larges"; field notes §2 ("double a[i]: 8 sectors").
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

template <typename T>
__global__ void axpy(T* __restrict__ y, const T* __restrict__ x, T alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    T xv = x[i];  // expect: global load sectors=4 ideal=4 eta=1.00 ; global load sectors=8 ideal=8 eta=1.00
    T yv = y[i];  // expect: global load sectors=4 ideal=4 eta=1.00 ; global load sectors=8 ideal=8 eta=1.00
    y[i] = alpha * xv + yv;  // expect: global store sectors=4 ideal=4 eta=1.00 ; global store sectors=8 ideal=8 eta=1.00
  }
}

int main() {
  float *xf = nullptr, *yf = nullptr;
  double *xd = nullptr, *yd = nullptr;
  CUDA_CHECK(cudaMalloc(&xf, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&yf, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&xd, N * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&yd, N * sizeof(double)));
  CUDA_CHECK(cudaMemset(xf, 0, N * sizeof(float)));
  CUDA_CHECK(cudaMemset(yf, 0, N * sizeof(float)));
  CUDA_CHECK(cudaMemset(xd, 0, N * sizeof(double)));
  CUDA_CHECK(cudaMemset(yd, 0, N * sizeof(double)));

  axpy<float><<<64, 256>>>(yf, xf, 2.0f, N);
  CUDA_CHECK(cudaGetLastError());
  axpy<double><<<64, 256>>>(yd, xd, 2.0, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(xf));
  CUDA_CHECK(cudaFree(yf));
  CUDA_CHECK(cudaFree(xd));
  CUDA_CHECK(cudaFree(yd));
  std::printf("global_template_kernel: ok\n");
  return 0;
}
