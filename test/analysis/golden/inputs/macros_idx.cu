// macros_idx.cu: indices written with macros: a row-major IDX(r, c), cuBLAS's column-major
// IDX2C(i, j, ld), and a macro missing its parentheses (whose expansion is what counts).
#include <cuda_runtime.h>

#define W 1024
#define IDX(r, c) ((r) * W + (c))
#define IDX2C(i, j, ld) (((j) * (ld)) + (i))
#define BAD_IDX(r, c) r * W + c
#define TILE_DIM 32
#define BLOCK_ROWS 8

// Block 32 x 8, row-major, lanes along c.
__global__ void copyRowMajor(const float* __restrict__ in, float* __restrict__ out) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  out[IDX(r, c)] = in[IDX(r, c)];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00
}

// Column-major with the row index on threadIdx.x: coalesced. Block 32 x 8.
__global__ void axpyColMajor(const float* __restrict__ A, float* __restrict__ B, int lda, float alpha) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  B[IDX2C(i, j, lda)] += alpha * A[IDX2C(i, j, lda)];  // expect: global load sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00 ; global store sectors=4 ideal=4 eta=1.00
}

// Column-major with the column index on threadIdx.x: lanes lda * 4 bytes apart. Block 32 x 8.
__global__ void scaleColMajorWrongAxis(float* __restrict__ A, int lda, float alpha) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  A[IDX2C(i, j, lda)] *= alpha;  // expect: global load sectors=32 ideal=4 eta=0.12 ; global store sectors=32 ideal=4 eta=0.12
}

// BAD_IDX(r + 1, c) expands to r + 1 * W + c: the two rows of a 16 x 16 block's warp are
// one float apart, not one row: the warp reads elements 0..16 past its base, 68 bytes.
__global__ void badMacro(const float* __restrict__ in, float* __restrict__ out) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  out[IDX(r, c)] = in[BAD_IDX(r + 1, c)];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=3 ideal=3 eta=1.00
}

// The classic tiled transpose with macro constants (TILE_DIM x BLOCK_ROWS threads).
__global__ void transposeCoalesced(float* odata, const float* idata) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  int width = gridDim.x * TILE_DIM;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];  // expect: shared store wavefronts=1 ideal=1 degree=1 ; global load sectors=4 ideal=4 eta=1.00
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];  // expect: global store sectors=4 ideal=4 eta=1.00 ; shared load wavefronts=1 ideal=1 degree=1
}

int main() {
  float *a, *b;
  cudaMalloc(&a, (W + 16) * W * sizeof(float));
  cudaMalloc(&b, (W + 16) * W * sizeof(float));
  copyRowMajor<<<dim3(W / 32, W / 8), dim3(32, 8)>>>(a, b);
  axpyColMajor<<<dim3(W / 32, W / 8), dim3(32, 8)>>>(a, b, W, 2.0f);
  scaleColMajorWrongAxis<<<dim3(W / 32, W / 8), dim3(32, 8)>>>(a, W, 2.0f);
  badMacro<<<dim3(W / 16, W / 16 - 1), dim3(16, 16)>>>(a, b);
  transposeCoalesced<<<dim3(W / TILE_DIM, W / TILE_DIM), dim3(TILE_DIM, BLOCK_ROWS)>>>(b, a);
  cudaDeviceSynchronize();
  return 0;
}
