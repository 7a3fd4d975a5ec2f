// Shared memory read down a column of TILE words: a TILE-way bank conflict when TILE is 32.
#include "tile.cuh"

__global__ void column(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float tile[TILE * TILE];
  tile[threadIdx.x] = in[blockIdx.x * TILE + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * TILE + threadIdx.x] = tile[(threadIdx.x % TILE) * TILE];
}

void runColumn(const float* in, float* out, int n) { column<<<n / TILE, TILE>>>(in, out); }
