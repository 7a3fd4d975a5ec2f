// global_2d_good_axes.cu: a 2D block of 32 x 8 threads over a 2048 x 2048 row-major
// matrix, with the column (the contiguous dimension) taken from threadIdx.x: a warp is one
// row segment of 32 neighbouring floats, 4 sectors per request.
// Seed 000 cause 1 (l'ordre des dimensions), "BON : x indexe les colonnes"; seed 001
// "use threadIdx.x for the fastest-varying axis". The bad twin: global_2d_inverted_axes.cu.
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

constexpr int WIDTH = 2048;
constexpr int HEIGHT = 2048;

__global__ void scale2D(const float* __restrict__ in, float* __restrict__ out, float factor, int width, int height) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < height && col < width) {
    float v = in[row * width + col];  // expect: global load sectors=4 ideal=4 eta=1.00
    out[row * width + col] = factor * v;  // expect: global store sectors=4 ideal=4 eta=1.00
  }
}

int main() {
  float *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, WIDTH * HEIGHT * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, WIDTH * HEIGHT * sizeof(float)));
  CUDA_CHECK(cudaMemset(in, 0, WIDTH * HEIGHT * sizeof(float)));

  dim3 block(32, 8);
  dim3 grid(64, 256);  // WIDTH / 32, HEIGHT / 8
  scale2D<<<grid, block>>>(in, out, 2.0f, WIDTH, HEIGHT);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("global_2d_good_axes: ok\n");
  return 0;
}
