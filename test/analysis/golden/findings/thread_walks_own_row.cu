// Panel 3 judged findings like these false (docs/precision.md): each thread walks its own row, so
// the bytes of a sector this iteration does not use are the same thread's next iterations'
// (particlefilter's ind[i * countOnes + y], huffman's srcData[offset + i]), and L1 serves the
// loads, L2 merges the stores. Measured on the H200 (bench/cache_reuse/h200) the caches do serve
// them (87 % L1 hits, DRAM traffic near the ideal), yet such a walk takes 2.9x to 4.0x the time of
// the same rows read coalesced, 12x to 15x as stores: every request still moves 32 sectors. So
// they stay warnings, with a note that says what the caches do and what it costs. A walk that
// moves a row per iteration gets no such note.
// Minimal kernels written for this test.
#include <cuda_runtime.h>

__global__ void ownRowLoad(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0;
  for (int x = 0; x < 64; ++x) sum += in[i * 64 + x];  // finding: uncoalesced-global-access=warning
  out[i] = sum;  // finding: none
}

__global__ void ownRowStore(const float* __restrict__ in, int* __restrict__ ind, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int y = 0; y < 64; ++y) ind[i * 64 + y] = static_cast<int>(in[y]);  // finding: uncoalesced-global-access=warning
}

__global__ void columnWalk(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0;
  for (int x = 0; x < 64; ++x) sum += in[x * 1024 * 64 + i * 64];  // finding: uncoalesced-global-access=warning
  out[i] = sum;  // finding: none
}

int main() {
  float *in, *out;
  int* ind;
  cudaMalloc(&in, 1 << 26);
  cudaMalloc(&out, 1 << 20);
  cudaMalloc(&ind, 1 << 24);
  ownRowLoad<<<4, 256>>>(in, out, 1024);
  ownRowStore<<<4, 256>>>(in, ind, 1024);
  columnWalk<<<4, 256>>>(in, out, 1024);
  cudaDeviceSynchronize();
  return 0;
}
