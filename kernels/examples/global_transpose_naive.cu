// global_transpose_naive.cu: out = transpose(in) straight through global memory, with
// 32 x 8 blocks each moving a 32 x 32 tile (loop over j, the classic TILE_DIM / BLOCK_ROWS
// shape). The read of in is coalesced (4 sectors); the write of out puts threadIdx.x on
// the row of out: lanes 4 KiB apart, 32 sectors per request (eta = 12.5 %).
// Seed 000 cause 5 (la transposition: "Lire une matrice par colonnes est intrinsèquement
// non coalescé") and the "Vérifiez" answer (column access, eta = 12.5 %). The fixes:
// shared_transpose_tiled.cu, shared_transpose_padded.cu, shared_transpose_swizzled.cu.
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

constexpr int TILE_DIM = 32;
constexpr int BLOCK_ROWS = 8;
constexpr int WIDTH = 1024;
constexpr int HEIGHT = 1024;

__global__ void transposeNaive(float* __restrict__ out, const float* __restrict__ in, int width, int height) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    float v = in[(y + j) * width + x];  // expect: global load sectors=4 ideal=4 eta=1.00
    out[x * height + (y + j)] = v;  // expect: global store sectors=32 ideal=4 eta=0.12 !inverted-thread-axes
  }
}

int main() {
  float *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, WIDTH * HEIGHT * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, WIDTH * HEIGHT * sizeof(float)));
  CUDA_CHECK(cudaMemset(in, 0, WIDTH * HEIGHT * sizeof(float)));

  dim3 block(32, 8);  // TILE_DIM x BLOCK_ROWS
  dim3 grid(32, 32);  // WIDTH / TILE_DIM, HEIGHT / TILE_DIM
  transposeNaive<<<grid, block>>>(out, in, WIDTH, HEIGHT);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("global_transpose_naive: ok\n");
  return 0;
}
