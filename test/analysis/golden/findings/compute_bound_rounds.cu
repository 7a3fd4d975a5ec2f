// A kernel's arithmetic as a floor under its time (session 19: lib/analysis/src/arithmetic_estimate.h,
// lib/report/src/cost.cpp `setTimeShare`). Each thread reads and writes its own 64-byte state,
// 64 bytes from its neighbours': 4 times the sectors a coalesced layout needs. Around 96 rounds
// of 64-bit mixing the kernel's arithmetic outlasts that traffic, and a fix would not shorten
// it: notes. Around one round, or rounds whose count the source does not fix (counted once,
// the estimate being a floor), the same accesses stay warnings. Minimal code written for this test.
#include <cstdint>

__device__ __forceinline__ uint64_t rotr(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }

__device__ __forceinline__ void mixRound(uint64_t* s, uint64_t k) {
#pragma unroll
  for (int i = 0; i < 8; i++) {
    const uint64_t a = s[i], b = s[(i + 1) & 7], c = s[(i + 3) & 7];
    s[i] = rotr(a, 14) ^ rotr(b, 18) ^ rotr(c, 41);
    s[i] += (a & b) ^ (~a & c) ^ k;
  }
}

__global__ void manyRounds(uint32_t threads, uint64_t* states) {
  const uint32_t thread = blockDim.x * blockIdx.x + threadIdx.x;
  if (thread < threads) {
    uint64_t* const own = &states[thread * 8U];
    uint64_t s[8];
#pragma unroll
    for (int i = 0; i < 8; i++) s[i] = own[i];  // finding: uncoalesced-global-access=note
    for (int r = 0; r < 96; r++) mixRound(s, 0x9e3779b97f4a7c15ull * r);
#pragma unroll
    for (int i = 0; i < 8; i++) own[i] = s[i];  // finding: uncoalesced-global-access=note
  }
}

__global__ void oneRound(uint32_t threads, uint64_t* states) {
  const uint32_t thread = blockDim.x * blockIdx.x + threadIdx.x;
  if (thread < threads) {
    uint64_t* const own = &states[thread * 8U];
    uint64_t s[8];
#pragma unroll
    for (int i = 0; i < 8; i++) s[i] = own[i];  // finding: uncoalesced-global-access=warning
    mixRound(s, 0x9e3779b97f4a7c15ull);
#pragma unroll
    for (int i = 0; i < 8; i++) own[i] = s[i];  // finding: uncoalesced-global-access=warning
  }
}

__global__ void roundsAtRunTime(uint32_t threads, int rounds, uint64_t* states) {
  const uint32_t thread = blockDim.x * blockIdx.x + threadIdx.x;
  if (thread < threads) {
    uint64_t* const own = &states[thread * 8U];
    uint64_t s[8];
#pragma unroll
    for (int i = 0; i < 8; i++) s[i] = own[i];  // finding: uncoalesced-global-access=warning
    for (int r = 0; r < rounds; r++) mixRound(s, 0x9e3779b97f4a7c15ull * r);
#pragma unroll
    for (int i = 0; i < 8; i++) own[i] = s[i];  // finding: uncoalesced-global-access=warning
  }
}

int main(int argc, char** argv) {
  uint64_t* states;
  const uint32_t threads = 1 << 20;
  cudaMalloc(&states, threads * 8 * sizeof(uint64_t));
  manyRounds<<<threads / 256, 256>>>(threads, states);
  oneRound<<<threads / 256, 256>>>(threads, states);
  roundsAtRunTime<<<threads / 256, 256>>>(threads, argc * 96, states);
  cudaFree(states);
  return 0;
}
