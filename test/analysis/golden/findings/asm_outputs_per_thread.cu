// A shared-memory index computed from inline PTX outputs (session 18: ccminer's neoscrypt,
// panel 18: judged false, "qbuf comes from each thread's own Blake2S output, so lanes hit
// random banks, not one bank 32 ways"). An asm statement's outputs get an unknown value, the
// same in every lane only when all its inputs are (lib/analysis/src/interpreter_statements.cpp,
// asmStatement); a local array written through them holds per-thread data. The index is then
// data-dependent: no conflict degree is claimed. With warp-uniform inputs the index is the same
// in every lane, and each thread's 256-byte row still puts all 32 lanes on one bank. Minimal
// code written for this test.
#include <cstdint>

__constant__ uint32_t tableOfWords[64];

__device__ __forceinline__ void mixKey(uint32_t* out, const uint32_t* key) {
#pragma unroll
  for (int i = 0; i < 8; i++) out[i] = key[i] * 0x9e3779b9u + key[(i + 1) & 7];
}

__global__ void rowsAtThreadData(const uint32_t* __restrict__ seeds, uint32_t* out) {
  __shared__ uint32_t rows[128 * 64];
  uint32_t* row = &rows[threadIdx.x * 64];
  uint32_t key[8] = {0};
  uint32_t mixed[8];
  const uint32_t seed = seeds[blockIdx.x * blockDim.x + threadIdx.x];
#pragma unroll
  for (int k = 0; k < 8; k++)
    asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(key[k]) : "r"(seed), "r"(tableOfWords[k]), "r"(8));
  mixKey(mixed, key);
  const uint32_t q = (mixed[0] + mixed[3]) & 63;
#pragma unroll
  for (int k = 0; k < 9; k++) row[(k + q) & 0x3f] = k;  // finding: none
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = row[q];  // finding: none
}

__global__ void rowsAtTableData(uint32_t* out) {
  __shared__ uint32_t rows[128 * 64];
  uint32_t* row = &rows[threadIdx.x * 64];
  uint32_t shifted;
  asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(shifted) : "r"(tableOfWords[0]), "r"(tableOfWords[1]), "r"(8));
  const uint32_t q = shifted & 63;
#pragma unroll
  for (int k = 0; k < 9; k++) row[(k + q) & 0x3f] = k;  // finding: shared-bank-conflict=warning
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = row[q];  // finding: shared-bank-conflict=warning
}

int main() {
  uint32_t *seeds, *out;
  cudaMalloc(&seeds, 1u << 20);
  cudaMalloc(&out, 1u << 20);
  for (int r = 0; r < 100; r++) {
    rowsAtThreadData<<<1024, 128>>>(seeds, out);
    rowsAtTableData<<<1024, 128>>>(out);
  }
  cudaFree(seeds);
  cudaFree(out);
  return 0;
}
