// global_bounds_check.cu: bounds checks that switch lanes off.
//  - scaleRows: one 256-thread block per row of 200 floats, `if (col < width)`. In every
//    block, warps 0-5 are full (4 sectors), warp 6 keeps 8 lanes (32 bytes, 1 sector) and
//    warp 7 has no active lane and issues no request: (6 x 4 + 1) / 7 = 3.57 sectors per
//    request, ideal 3.57, eta = 100 %.
//  - scaleTail: the usual 1D `if (i < n)` with n = 64 x 256 - 40: only the last block's
//    tail is partial. The block figure (4 sectors) is the full-warp one; over the whole grid
//    the mean is 2043 / 511 = 3.998, which also rounds to 4.00.
// Field notes §7 ("count requests with at least one active lane"); design notes
// ("Predicated-off lanes: a bounds check leaves the tail warp partly empty").
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

constexpr int ROWS = 256;
constexpr int WIDTH = 200;
constexpr int N = 64 * 256 - 40;

__global__ void scaleRows(const float* __restrict__ in, float* __restrict__ out, float factor, int width) {
  int row = blockIdx.x;
  int col = threadIdx.x;
  if (col < width) {
    float v = in[row * width + col];  // expect: global load sectors=3.57 ideal=3.57 eta=1.00
    out[row * width + col] = factor * v;  // expect: global store sectors=3.57 ideal=3.57 eta=1.00
  }
}

__global__ void scaleTail(const float* __restrict__ in, float* __restrict__ out, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = in[i];  // expect: global load sectors=4 ideal=4 eta=1.00
    out[i] = factor * v;  // expect: global store sectors=4 ideal=4 eta=1.00
  }
}

int main() {
  float *rowsIn = nullptr, *rowsOut = nullptr, *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&rowsIn, ROWS * WIDTH * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&rowsOut, ROWS * WIDTH * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&in, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, N * sizeof(float)));
  CUDA_CHECK(cudaMemset(rowsIn, 0, ROWS * WIDTH * sizeof(float)));
  CUDA_CHECK(cudaMemset(in, 0, N * sizeof(float)));

  scaleRows<<<256, 256>>>(rowsIn, rowsOut, 2.0f, 200);
  CUDA_CHECK(cudaGetLastError());
  scaleTail<<<64, 256>>>(in, out, 2.0f, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(rowsIn));
  CUDA_CHECK(cudaFree(rowsOut));
  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("global_bounds_check: ok\n");
  return 0;
}
