// global_block16_2d.cu: 2D blocks of 16 x 16 threads (blockDim.x = 16). A warp is then two
// half-rows: threadIdx.x 0..15 on two consecutive values of threadIdx.y.
//  - blurRows: the column comes from threadIdx.x. Each warp reads two 64-byte runs, each
//    aligned to 64 bytes (the width is a multiple of 16): 4 sectors, eta = 100 %.
//    A blockDim.x of 16 costs nothing as long as 16 x 4 bytes stays sector-aligned.
//  - blurRowsInverted: the row comes from threadIdx.x. 16 rows, 4 KiB apart, each holding
//    2 neighbouring floats of the warp in one sector: 16 sectors for 4 useful ones.
// Seed 000 cause 1 (dimension order) with a block narrower than a warp.
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

constexpr int WIDTH = 1024;
constexpr int HEIGHT = 1024;

__global__ void blurRows(const float* __restrict__ in, float* __restrict__ out, int width, int height) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < height && col < width) {
    float v = in[row * width + col];  // expect: global load sectors=4 ideal=4 eta=1.00
    out[row * width + col] = 0.5f * v;  // expect: global store sectors=4 ideal=4 eta=1.00
  }
}

__global__ void blurRowsInverted(const float* __restrict__ in, float* __restrict__ out, int width, int height) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < height && col < width) {
    float v = in[row * width + col];  // expect: global load sectors=16 ideal=4 eta=0.25 !inverted-thread-axes
    out[row * width + col] = 0.5f * v;  // expect: global store sectors=16 ideal=4 eta=0.25 !inverted-thread-axes
  }
}

int main() {
  float *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, WIDTH * HEIGHT * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, WIDTH * HEIGHT * sizeof(float)));
  CUDA_CHECK(cudaMemset(in, 0, WIDTH * HEIGHT * sizeof(float)));

  dim3 block(16, 16);
  dim3 grid(64, 64);  // WIDTH / 16, HEIGHT / 16
  blurRows<<<grid, block>>>(in, out, WIDTH, HEIGHT);
  CUDA_CHECK(cudaGetLastError());
  blurRowsInverted<<<grid, block>>>(in, out, WIDTH, HEIGHT);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("global_block16_2d: ok\n");
  return 0;
}
