// global_embedding_gather.cu: an embedding lookup. The row is chosen through an index
// loaded from memory (indirect), but a whole block (or a whole warp) then reads that row
// contiguously: 32 neighbouring floats per request, 4 sectors, eta = 100 %. The index load
// itself is the same address in every lane of the block (or warp): 1 sector. Nothing here
// must be flagged: the indirection picks the row, it does not scatter the lanes.
//  - gatherRowsPerBlock: one 256-thread block per token, D = 256 = blockDim.x.
//  - gatherRowsPerWarp: one warp per token, looping over the row 32 floats at a time.
// Seed 000, "Vous avez une table de plongement ... Assignez un bloc (ou un warp) par ligne
// et lisez-la de manière coalescée ... l'indirection sur des blocs larges n'est pas un
// problème de coalescence." Token ids are a fixed pseudo-random sequence (all valid).
#include <vector>
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

constexpr int VOCAB = 4096;
constexpr int D = 256;
constexpr int TOKENS = 512;
constexpr int WARPS_PER_BLOCK = 8;

__global__ void gatherRowsPerBlock(const float* __restrict__ table, const int* __restrict__ rows,
                                   float* __restrict__ out) {
  int token = blockIdx.x;
  int row = rows[token];  // expect: global load sectors=1 ideal=1 eta=1.00
  float v = table[row * D + threadIdx.x];  // expect: global load sectors=4 ideal=4 eta=1.00
  out[token * D + threadIdx.x] = v;  // expect: global store sectors=4 ideal=4 eta=1.00
}

__global__ void gatherRowsPerWarp(const float* __restrict__ table, const int* __restrict__ rows,
                                  float* __restrict__ out) {
  int lane = threadIdx.x % 32;
  int token = blockIdx.x * WARPS_PER_BLOCK + threadIdx.x / 32;
  int row = rows[token];  // expect: global load sectors=1 ideal=1 eta=1.00
  for (int d0 = 0; d0 < D; d0 += 32) {
    float v = table[row * D + d0 + lane];  // expect: global load sectors=4 ideal=4 eta=1.00
    out[token * D + d0 + lane] = v;  // expect: global store sectors=4 ideal=4 eta=1.00
  }
}

int main() {
  std::vector<int> ids(TOKENS);
  unsigned state = 2024u;
  for (int t = 0; t < TOKENS; ++t) {
    state = state * 1664525u + 1013904223u;
    ids[t] = static_cast<int>((state >> 8) % VOCAB);
  }

  float *table = nullptr, *out = nullptr;
  int* rows = nullptr;
  CUDA_CHECK(cudaMalloc(&table, VOCAB * D * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&rows, TOKENS * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&out, TOKENS * D * sizeof(float)));
  CUDA_CHECK(cudaMemset(table, 0, VOCAB * D * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(rows, ids.data(), TOKENS * sizeof(int), cudaMemcpyHostToDevice));

  gatherRowsPerBlock<<<512, 256>>>(table, rows, out);
  CUDA_CHECK(cudaGetLastError());
  gatherRowsPerWarp<<<64, 256>>>(table, rows, out);  // 64 blocks x 8 warps = 512 tokens
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(table));
  CUDA_CHECK(cudaFree(rows));
  CUDA_CHECK(cudaFree(out));
  std::printf("global_embedding_gather: ok\n");
  return 0;
}
