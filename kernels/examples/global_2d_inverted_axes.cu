// global_2d_inverted_axes.cu: the same 2D scaling as global_2d_good_axes.cu, but the row
// index comes from threadIdx.x and the column from threadIdx.y. Neighbouring lanes read
// neighbouring ROWS of a 2048-wide row-major matrix, 8 KiB apart: 32 sectors per request
// for 4 useful ones (eta = 12.5 %), on the load and on the store.
// Seed 000 cause 1, "MAUVAIS : x indexe les lignes ... adresses espacées de N*4 octets";
// field notes §2: "2D block 32x8, row index from threadIdx.x over a 2048-wide row-major
// matrix: 32 sectors".
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

__global__ void scale2DInverted(const float* __restrict__ in, float* __restrict__ out, float factor, int width,
                                int height) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < height && col < width) {
    float v = in[row * width + col];  // expect: global load sectors=32 ideal=4 eta=0.12 !inverted-thread-axes
    out[row * width + col] = factor * v;  // expect: global store sectors=32 ideal=4 eta=0.12 !inverted-thread-axes
  }
}

int main() {
  float *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, WIDTH * HEIGHT * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, WIDTH * HEIGHT * sizeof(float)));
  CUDA_CHECK(cudaMemset(in, 0, WIDTH * HEIGHT * sizeof(float)));

  dim3 block(32, 8);
  dim3 grid(64, 256);  // HEIGHT / 32 rows, WIDTH / 8 columns
  scale2DInverted<<<grid, block>>>(in, out, 2.0f, WIDTH, HEIGHT);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("global_2d_inverted_axes: ok\n");
  return 0;
}
