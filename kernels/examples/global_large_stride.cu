// global_large_stride.cu: one thread per row sums its row of a row-major matrix. In each
// iteration of the (warp-uniform) loop over c, neighbouring lanes read neighbouring ROWS,
// cols * 4 = 1024 bytes apart: every lane needs its own sector, 32 sectors per request.
// Seed 000, table 2.1, row "Pas >= 8" (32 sectors, eta = 12.5 %), and the "Vérifiez" answer:
// a column-wise walk of a row-major matrix has a stride of one row. The row width is a
// runtime argument, given as a literal at the launch site. See global_loop_uniform.cu for
// the coalesced version (one thread per column).
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

constexpr int ROWS = 64 * 256;
constexpr int COLS = 256;

__global__ void rowSums(const float* __restrict__ m, float* __restrict__ sums, int rows, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float s = 0.0f;
    for (int c = 0; c < cols; ++c)
      s += m[row * cols + c];  // expect: global load sectors=32 ideal=4 eta=0.12 !uncoalesced-global-access
    sums[row] = s;  // expect: global store sectors=4 ideal=4 eta=1.00
  }
}

int main() {
  float *m = nullptr, *sums = nullptr;
  CUDA_CHECK(cudaMalloc(&m, ROWS * COLS * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&sums, ROWS * sizeof(float)));
  CUDA_CHECK(cudaMemset(m, 0, ROWS * COLS * sizeof(float)));

  rowSums<<<64, 256>>>(m, sums, 16384, 256);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(m));
  CUDA_CHECK(cudaFree(sums));
  std::printf("global_large_stride: ok\n");
  return 0;
}
