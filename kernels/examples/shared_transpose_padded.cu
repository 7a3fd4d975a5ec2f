// shared_transpose_padded.cu: seed 000's own transpose kernel, "transposer", with the tile
// padded to [32][33] and one 32 x 32 block per tile. The column read tile[threadIdx.x][...]
// now walks words 33 apart, and 33 mod 32 = 1: 32 different banks, 1 wavefront. Both
// global accesses are coalesced. Global and shared accesses share a line, as in the seed.
// Seed 000 cause 5 ("__shared__ float tuile[32][33]; // 33 pour éviter les conflits de
// banc"), §2.3 row "s[33t]: aucun"; seed 001 "declare the tile [N][33]".
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

constexpr int N = 1024;

__global__ void transposer(const float* in, float* out, int n) {
  __shared__ float tuile[32][33];  // 33 to avoid bank conflicts

  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;

  // Coalesced read of in
  if (x < n && y < n) tuile[threadIdx.y][threadIdx.x] = in[y * n + x];  // expect: global load sectors=4 ideal=4 eta=1.00 ; shared store wavefronts=1 ideal=1 degree=1
  __syncthreads();

  // Coalesced write of out (block indices swapped)
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  if (x < n && y < n) out[y * n + x] = tuile[threadIdx.x][threadIdx.y];  // expect: shared load wavefronts=1 ideal=1 degree=1 ; global store sectors=4 ideal=4 eta=1.00
}

int main() {
  float *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, N * N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, N * N * sizeof(float)));
  CUDA_CHECK(cudaMemset(in, 0, N * N * sizeof(float)));

  dim3 block(32, 32);
  dim3 grid(32, 32);  // N / 32 tiles in each dimension
  transposer<<<grid, block>>>(in, out, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("shared_transpose_padded: ok\n");
  return 0;
}
