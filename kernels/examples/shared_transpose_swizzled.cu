// shared_transpose_swizzled.cu: the tiled transpose with an unpadded 32 x 32 tile whose
// columns are XOR-swizzled: element (r, c) lives at tile[r][c ^ r]. A row write touches
// the 32 columns c ^ r (a permutation), a column read (c fixed, r = threadIdx.x) touches
// banks c ^ r, all different: 1 wavefront both ways, with no wasted word and the tile
// kept 128-byte aligned (what TMA / wgmma need). Lane addresses are not affine (XOR).
// Seed 000 §2.4 (le swizzling): "la ligne r colonne c est stockée à 32r + (c xor r)".
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

__global__ void transposeSwizzled(float* __restrict__ out, const float* __restrict__ in, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM];

  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    int r = threadIdx.y + j;
    float v = in[(y + j) * width + x];  // expect: global load sectors=4 ideal=4 eta=1.00
    tile[r][threadIdx.x ^ r] = v;  // expect: shared store wavefronts=1 ideal=1 degree=1
  }
  __syncthreads();

  x = blockIdx.y * TILE_DIM + threadIdx.x;  // swapped block indices
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    int c = threadIdx.y + j;
    float v = tile[threadIdx.x][c ^ threadIdx.x];  // expect: shared load wavefronts=1 ideal=1 degree=1
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
  transposeSwizzled<<<grid, block>>>(out, in, WIDTH, HEIGHT);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("shared_transpose_swizzled: ok\n");
  return 0;
}
