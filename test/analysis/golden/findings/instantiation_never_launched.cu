// An instantiation whose launch sits in a branch every call makes false never runs: it costs
// the program nothing (docs/findings.md, "Levels"). The CUDA samples' mergeSort launches
// `generateSampleRanksKernel<1U>` or `<0U>` by `if (sortDir)` in a wrapper that main always
// calls with sortDir 1; the `<0U>` instantiation, launched nowhere, left the place without a
// share of the program (merge_findings.cpp needs one for every kernel it covers), so its
// strided sampling load, under 1 % of the program, was a warning; blind panels 4 and 8 judged it
// noise. Minimal kernels written for this test.
#include <cuda_runtime.h>

// Every 512th key, read by one thread each: strided, and a small part of each run.
template <unsigned ascending>
__global__ void sampleRanks(const unsigned* __restrict__ keys, unsigned* __restrict__ ranks, int samples) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= samples) return;
  const unsigned key = keys[i * 512];  // finding: uncoalesced-global-access=note
  ranks[i] = ascending ? key : ~key;  // finding: none
}

// The pass over all the data, launched as often: coalesced.
__global__ void mergePass(const unsigned* __restrict__ in, unsigned* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + 1;  // finding: none
}

static void sample(const unsigned* keys, unsigned* ranks, int samples, unsigned ascending) {
  if (ascending)
    sampleRanks<1U><<<(samples + 255) / 256, 256>>>(keys, ranks, samples);
  else
    sampleRanks<0U><<<(samples + 255) / 256, 256>>>(keys, ranks, samples);
}

int main() {
  const int n = 1 << 22;
  unsigned *keys, *ranks, *out;
  cudaMalloc(&keys, n * sizeof(unsigned));
  cudaMalloc(&ranks, n / 512 * sizeof(unsigned));
  cudaMalloc(&out, n * sizeof(unsigned));
  for (int pass = 0; pass < 10; ++pass) {
    sample(keys, ranks, n / 512, 1);
    mergePass<<<n / 256, 256>>>(keys, out, n);
  }
  cudaDeviceSynchronize();
  return 0;
}
