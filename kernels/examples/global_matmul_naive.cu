// global_matmul_naive.cu: seed 002's naive matrix multiply (matmulNaive) on 16 x 16 blocks,
// the version before tiling; shared_matmul_tiled.cu is the same product with 16 x 16 tiles.
//  - A[row * n + k]: the 16 lanes of a tile row read one float (a broadcast), so a warp (two
//    rows) asks for 8 bytes in 2 sectors; no other warp of the block reads those rows. No
//    finding: 32 lanes on consecutive floats would need 4 sectors (docs/findings.md).
//  - B[k * n + col]: a warp reads the 16 floats of row k the block covers, 64 bytes in 2
//    sectors, and so do the block's 7 other warps: the block requests 512 bytes per k for
//    64 distinct bytes (reuse 8x). The shared-tiling-opportunity hint names it; the tile
//    of shared_matmul_tiled.cu loads them once per block.
// Seed 002, "Tiling en memoire partagee" ("sans tiling, calculer un element C[i][j] relit une
// ligne entiere de A et une colonne entiere de B ... relues par des dizaines d'autres threads
// du meme bloc"), and its checklist, item 3.
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

constexpr int N = 512;

__global__ void matmulNaive(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) {
    float a = A[row * n + k];  // expect: global load sectors=2 ideal=1 eta=0.50
    float b = B[k * n + col];  // expect: global load sectors=2 ideal=2 eta=1.00 // expect-hint: shared-tiling-opportunity
    acc += a * b;
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

  dim3 block(16, 16);
  dim3 grid(32, 32);  // N / 16 in each dimension
  matmulNaive<<<grid, block>>>(A, B, C, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(A));
  CUDA_CHECK(cudaFree(B));
  CUDA_CHECK(cudaFree(C));
  std::printf("global_matmul_naive: ok\n");
  return 0;
}
