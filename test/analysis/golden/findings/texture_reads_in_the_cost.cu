// A kernel that reads its data through the texture path moves memory like any other: its
// fetches count in its kernel's and its program's memory time (docs/findings.md, "Cost").
// Until session 12 a fetch was an opaque call that moved nothing, so a one-off setup kernel
// beside an iterative kernel reading through textures looked like most of the program (Rodinia
// kmeans' `invert_mapping` before `kmeansPoint`, which reads `tex1Dfetch(t_features, ...)`:
// 78 % of the program; leukocyte's `dilate_kernel`, 87 %), and blind panel 4 judged both
// noise. Minimal kernels written for this test.
#include <cuda_runtime.h>

// Launched once: an AoS to SoA transpose whose strided loads waste 28 of every 32 sectors.
// Without the fetches of `score` counted, its waste was 10 % of the program; with them, 0.7 %.
__global__ void flipFeatures(const float* __restrict__ aos, float* __restrict__ soa, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (int f = 0; f < 16; ++f) soa[f * n + i] = aos[i * 16 + f];  // finding: uncoalesced-global-access=note
}

// Launched 1000 times: every thread fetches its 16 features through a texture object. The
// fetches themselves are no finding (the model has no figures for the texture path), even at
// scattered coordinates.
__global__ void score(cudaTextureObject_t features, cudaTextureObject_t weights, float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0;
  for (int f = 0; f < 16; ++f) s += tex1Dfetch<float>(features, f * n + i);  // finding: none
  s *= tex1Dfetch<float>(weights, i * 33);  // finding: none
  out[i] = s;  // finding: none
}

int main() {
  const int n = 1 << 20;
  float *aos, *soa, *out;
  cudaMalloc(&aos, 16 * n * sizeof(float));
  cudaMalloc(&soa, 16 * n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaTextureObject_t features = 0, weights = 0;
  flipFeatures<<<n / 256, 256>>>(aos, soa, n);
  for (int it = 0; it < 1000; ++it) {
    score<<<n / 256, 256>>>(features, weights, out, n);
  }
  cudaDeviceSynchronize();
  return 0;
}
