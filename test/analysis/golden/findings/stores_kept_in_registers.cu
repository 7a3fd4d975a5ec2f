// A hash's finalisation writes each output word through a chain of XORs (session 18: ccminer's
// luffa finalisation, panel 18: judged false, "nvcc keeps b[i] in a register: the kernel's PTX
// has only the 16 final stores and no loads"). A load of what this thread has just stored at
// the same address is forwarded from a register, also from one iteration of a loop to the
// next, and a store the same thread overwrites before anything may read it is dropped
// (lib/analysis/src/register_forwarding.h): only the final store of each word is an access.
// Where another pointer may read the word in between, the first store stays. Minimal code
// written for this test.
#include <cstdint>

__device__ __forceinline__ uint32_t swapBytes(uint32_t x) { return __byte_perm(x, 0, 0x0123); }

__device__ void finishWords(const uint32_t* chain, uint32_t* b) {
#pragma unroll
  for (int i = 0; i < 8; i++) {
    b[i] = 0;  // finding: none
#pragma unroll 5
    for (int j = 0; j < 5; j++) b[i] ^= chain[i + 8 * j];  // finding: none
    b[i] = swapBytes(b[i]);  // finding: uncoalesced-global-access=warning
  }
}

__global__ void finishHashes(uint32_t threads, const uint32_t* __restrict__ pre, uint32_t* hashes) {
  const uint32_t thread = blockDim.x * blockIdx.x + threadIdx.x;
  if (thread < threads) {
    uint32_t chain[40];
#pragma unroll
    for (int i = 0; i < 40; i++) chain[i] = pre[i] ^ thread;
    finishWords(chain, &hashes[thread * 8]);
  }
}

// The word is read through another pointer before it is overwritten: both stores stay.
__global__ void rewriteAfterRead(uint32_t threads, const uint32_t* other, uint32_t* words, uint32_t* sums) {
  const uint32_t thread = blockDim.x * blockIdx.x + threadIdx.x;
  if (thread < threads) {
    words[thread * 8] = thread;  // finding: uncoalesced-global-access=warning
    sums[thread] = other[thread];  // may read words[thread * 8]
    words[thread * 8] = 2 * thread;  // finding: uncoalesced-global-access=warning
  }
}

int main() {
  uint32_t *pre, *hashes, *sums;
  cudaMalloc(&pre, 40 * sizeof(uint32_t));
  cudaMalloc(&hashes, 8u << 20);
  cudaMalloc(&sums, 1u << 20);
  for (int r = 0; r < 100; r++) {
    finishHashes<<<1024, 256>>>(256 * 1024, pre, hashes);
    rewriteAfterRead<<<1024, 256>>>(256 * 1024, hashes, hashes, sums);
  }
  cudaFree(pre);
  cudaFree(hashes);
  cudaFree(sums);
  return 0;
}
