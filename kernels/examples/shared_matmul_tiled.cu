// shared_matmul_tiled.cu: seed 002's tiled matrix multiply, matmulTiled, with TILE = 16
// (16 x 16 blocks, so a warp is two tile rows of 16 threads).
//  - Global loads of A and B and the store of C: two 64-byte runs per warp, each aligned to
//    64 bytes: 4 sectors, eta = 100 %.
//  - Shared stores tileA[ty][tx], tileB[ty][tx]: 32 consecutive words, 1 wavefront.
//  - Inner loop: tileA[ty][k] is two words (rows ty, ty + 1, 16 words = 16 banks apart),
//    tileB[k][tx] is 16 words read by two lanes each (broadcast): 1 wavefront, no conflict.
//    nvcc merges each four tileA[ty][k] of the unrolled k loop into one 128-bit load (the
//    H200's SASS: four LDS.128, 2 wavefronts each, ideal 2), which the tool predicts since
//    session 40 (lib/analysis/src/compiler_vectorised.cpp): no conflict either way.
// Seed 002, "Tiling en memoire partagee" (matmulTiled, "les acces a tileA et tileB doivent
// eviter les conflits de banques").
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

#define TILE 16
constexpr int N = 512;

__global__ void matmulTiled(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int n) {
  __shared__ float tileA[TILE][TILE];
  __shared__ float tileB[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    tileA[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];  // expect: global load sectors=4 ideal=4 eta=1.00 ; shared store wavefronts=1 ideal=1 degree=1
    tileB[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];  // expect: global load sectors=4 ideal=4 eta=1.00 ; shared store wavefronts=1 ideal=1 degree=1
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      acc += tileA[threadIdx.y][k] * tileB[k][threadIdx.x];  // expect: shared load wavefronts=2 ideal=2 degree=1 ; shared load wavefronts=1 ideal=1 degree=1
    __syncthreads();
  }
  C[row * n + col] = acc;  // expect: global store sectors=4 ideal=4 eta=1.00
}

int main() {
  float *A = nullptr, *B = nullptr, *C = nullptr;
  CUDA_CHECK(cudaMalloc(&A, N * N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&B, N * N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&C, N * N * sizeof(float)));
  CUDA_CHECK(cudaMemset(A, 0, N * N * sizeof(float)));
  CUDA_CHECK(cudaMemset(B, 0, N * N * sizeof(float)));

  dim3 block(16, 16);  // TILE x TILE
  dim3 grid(32, 32);   // N / TILE in each dimension
  matmulTiled<<<grid, block>>>(A, B, C, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(A));
  CUDA_CHECK(cudaFree(B));
  CUDA_CHECK(cudaFree(C));
  std::printf("shared_matmul_tiled: ok\n");
  return 0;
}
