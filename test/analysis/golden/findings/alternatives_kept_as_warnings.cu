// Choices that are not between alternatives of one job, or in which no alternative shows a fix:
// each keeps its warnings (docs/findings.md, "Levels"; lib/analysis/src/launch_alternatives.cpp,
// lib/report/src/alternative_level.cpp; the alternatives that are notes are in
// alternatives_at_run_time.cu). An operation chosen at run time (`add` or `mul`: the same
// arguments, but names that say the jobs differ), alternatives that all waste, and a choice fixed
// before the program runs (a macro: the program as built runs the naive kernel; the blog's cuFFT
// sample, judged worth fixing by panel 5). Minimal kernels written for this test.
#include <cuda_runtime.h>

// ---- the counter-example: an operation chosen at run time, not an implementation ----

__global__ void add_columns(float* out, const float* a, const float* b, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i * 32] + b[i * 32];  // finding: uncoalesced-global-access=warning
}

__global__ void mul_columns(float* out, const float* a, const float* b, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i] * b[i];  // finding: none
}

enum Op { kAdd, kMul };

// ---- alternatives that all waste: nothing shows a fix, the warnings stay ----

__global__ void scatter_v1(float* out, const float* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i * 32] = in[i];  // finding: uncoalesced-global-access=warning
}

__global__ void scatter_v2(float* out, const float* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[(i % 1024) * 1024 + i / 1024] = in[i];  // finding: uncoalesced-global-access=warning
}

// ---- a choice fixed before the program runs: the naive kernel is the one that runs ----

#define USE_FAST_GATHER 0

__global__ void gather_basic(float* out, const float* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[(i % 2048) * 512 + i / 2048];  // finding: uncoalesced-global-access=warning
}

__global__ void gather_fast(float* out, const float* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];  // finding: none
}

int main(int argc, char** argv) {
  const int n = 1 << 20;
  float *out, *in, *a, *b;
  cudaMalloc(&out, 32 * n * sizeof(float));
  cudaMalloc(&in, 32 * n * sizeof(float));
  cudaMalloc(&a, 32 * n * sizeof(float));
  cudaMalloc(&b, 32 * n * sizeof(float));
  const Op op = argc > 1 ? kMul : kAdd;
  switch (op) {
    case kAdd:
      add_columns<<<n / 256, 256>>>(out, a, b, n);
      break;
    case kMul:
      mul_columns<<<n / 256, 256>>>(out, a, b, n);
      break;
  }

  if (argc > 2) scatter_v1<<<n / 256, 256>>>(out, in, n);
  else scatter_v2<<<n / 256, 256>>>(out, in, n);

  if (USE_FAST_GATHER) gather_fast<<<n / 256, 256>>>(out, in, n);
  else gather_basic<<<n / 256, 256>>>(out, in, n);
  cudaDeviceSynchronize();
  return 0;
}
