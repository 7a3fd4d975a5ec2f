// Panels 4 and 5 judged these noise (docs/precision.md): true waste, but a negligible part of
// what the program's run costs. Kmeans' `invert_mapping` (a one-off AoS to SoA transpose
// before the iterative kernel), CUDA samples' histogram merges and scan's second level (a pass
// over a few partial results), lud's single-block diagonal step: each wastes most of its own
// kernel's traffic, so only the program's view tells them apart from the hot kernel's
// problem, which stays a warning. Minimal kernels written for this test.
#include <cuda_runtime.h>

// Launched once, before the loop: its strided reads are a one-time cost.
__global__ void setupTranspose(const float* __restrict__ aos, float* __restrict__ soa, int n, int features) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (int f = 0; f < 4; ++f) soa[f * n + i] = aos[i * features + f];  // finding: uncoalesced-global-access=note
}

// Launched 1000 times over the whole data: its transposed store is the program's problem.
// The last block also writes a strided tail: once per launch, not once per block, so its
// waste is a small part of the kernel's (multisplit's last-block store, panel 5).
__global__ void step(const float* __restrict__ soa, float* __restrict__ out, float* __restrict__ tail, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float v = soa[i] + soa[n + i] + soa[2 * n + i] + soa[3 * n + i];  // finding: none
  out[(i % 1024) * 1024 + i / 1024] = v;  // finding: uncoalesced-global-access=warning
  if (blockIdx.x == gridDim.x - 1) tail[threadIdx.x * 32] = v;  // finding: uncoalesced-global-access=note
}

// One block after every step: strided over a few partial results.
__global__ void mergePartials(const float* __restrict__ partial, float* __restrict__ total, int count) {
  float sum = 0;
  for (int p = 0; p < count; ++p) sum += partial[threadIdx.x * count + p];  // finding: uncoalesced-global-access=note
  total[threadIdx.x] = sum;  // finding: none
}

int main() {
  const int n = 1 << 20;
  float *aos, *soa, *out, *total, *tail;
  cudaMalloc(&aos, 34 * n * sizeof(float));
  cudaMalloc(&soa, 4 * n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMalloc(&total, 256 * sizeof(float));
  cudaMalloc(&tail, 32 * 256 * sizeof(float));
  setupTranspose<<<n / 256, 256>>>(aos, soa, n, 34);
  for (int it = 0; it < 1000; ++it) {
    step<<<n / 256, 256>>>(soa, out, tail, n);
    mergePartials<<<1, 256>>>(out, total, 16);
  }
  cudaDeviceSynchronize();
  return 0;
}
