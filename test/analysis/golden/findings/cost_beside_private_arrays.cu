// A hash's state kept in a thread-private array, written out at the end (session 18: ccminer's
// luffa kernels). The private array's loads have no requests in any block; the blocks that run
// the store were taken from them, as they share its guards, so the store counted its requests
// in 1 of the 16 blocks (lib/analysis/src/lane_function.cpp, `blockFraction`: only an access
// with requests measures it). Minimal code written for this test.
#include <cstdint>

__device__ __forceinline__ void mixState(uint32_t* chain, const uint32_t* data) {
#pragma unroll
  for (int i = 0; i < 8; i++) chain[i] ^= data[i] * 0x9e3779b9u;  // finding: uncoalesced-global-access=warning
}

__global__ void writePrivateState(uint32_t threads, uint32_t* hashes) {
  const uint32_t thread = blockDim.x * blockIdx.x + threadIdx.x;
  if (thread < threads) {
    uint32_t chain[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    uint32_t* const hash = &hashes[thread * 16U];
    mixState(chain, hash);
    hash[0] = chain[0];  // finding: uncoalesced-global-access=note
  }
}

int main() {
  uint32_t* hashes;
  const uint32_t threads = 4096;
  cudaMalloc(&hashes, threads * 16 * sizeof(uint32_t));
  for (int r = 0; r < 100; r++) writePrivateState<<<(threads + 255) / 256, 256>>>(threads, hashes);
  cudaFree(hashes);
  return 0;
}
