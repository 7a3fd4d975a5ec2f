// shared_transpose_tiled.cu: the transpose staged through a shared 32 x 32 tile. Both
// global accesses are now coalesced (4 sectors), but the tile is read down a column,
// tile[threadIdx.x][...]: 32 lanes, 32 different words, all in one bank (row pitch
// 32 x 4 = 128 bytes): a 32-way bank conflict, 32 wavefronts per request.
// Seed 000 cause 5 and §2.3; seed 001 "padding trick: a column access of a 32-wide shared
// tile sends every lane to bank 0 (32-way conflict)". The fixes: shared_transpose_padded.cu
// and shared_transpose_swizzled.cu.
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

__global__ void transposeTiled(float* __restrict__ out, const float* __restrict__ in, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM];

  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    float v = in[(y + j) * width + x];  // expect: global load sectors=4 ideal=4 eta=1.00
    tile[threadIdx.y + j][threadIdx.x] = v;  // expect: shared store wavefronts=1 ideal=1 degree=1
  }
  __syncthreads();

  x = blockIdx.y * TILE_DIM + threadIdx.x;  // swapped block indices
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    float v = tile[threadIdx.x][threadIdx.y + j];  // expect: shared load wavefronts=32 ideal=1 degree=32 !shared-bank-conflict
    out[(y + j) * height + x] = v;  // expect: global store sectors=4 ideal=4 eta=1.00
  }
}

int main() {
  float *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, WIDTH * HEIGHT * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, WIDTH * HEIGHT * sizeof(float)));
  CUDA_CHECK(cudaMemset(in, 0, WIDTH * HEIGHT * sizeof(float)));

  dim3 block(32, 8);  // TILE_DIM x BLOCK_ROWS
  dim3 grid(32, 32);  // WIDTH / TILE_DIM, HEIGHT / TILE_DIM
  for (int step = 0; step < 1000; ++step) transposeTiled<<<grid, block>>>(out, in, WIDTH, HEIGHT);  // a program's steps: once, it wastes less than a launch costs (MinWastePerRun)
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("shared_transpose_tiled: ok\n");
  return 0;
}
