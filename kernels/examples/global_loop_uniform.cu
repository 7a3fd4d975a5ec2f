// global_loop_uniform.cu: one thread per column sums its column of a row-major matrix.
// The loop variable r is the same in every lane (warp-uniform): in each iteration the warp
// reads 32 neighbouring floats of row r, 4 sectors per request, in every iteration.
// Seed 001, "walk the row, not the column" / seed 000 cause 1, the good orientation; the
// transposed work split of global_large_stride.cu.
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
constexpr int COLS = 64 * 256;

__global__ void columnSums(const float* __restrict__ m, float* __restrict__ sums, int rows, int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col < cols) {
    float s = 0.0f;
    for (int r = 0; r < rows; ++r)
      s += m[r * cols + col];  // expect: global load sectors=4 ideal=4 eta=1.00
    sums[col] = s;  // expect: global store sectors=4 ideal=4 eta=1.00
  }
}

int main() {
  float *m = nullptr, *sums = nullptr;
  CUDA_CHECK(cudaMalloc(&m, ROWS * COLS * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&sums, COLS * sizeof(float)));
  CUDA_CHECK(cudaMemset(m, 0, ROWS * COLS * sizeof(float)));

  columnSums<<<64, 256>>>(m, sums, 256, 16384);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(m));
  CUDA_CHECK(cudaFree(sums));
  std::printf("global_loop_uniform: ok\n");
  return 0;
}
