// loop_forms.cu: loops whose trip count is set by the condition's position or side effect:
// do/while (the body runs before the first test), an increment inside the condition, and
// for (;;) with a break.
#include <cuda_runtime.h>

constexpr int N = 1 << 16;

// do { ... } while (++k < 4): k = 0, 1, 2, 3 in the body. Iteration k reads 32 floats 3*k
// floats in: residues 0, 12, 24, 4 bytes: 4, 5, 5, 5 sectors.
__global__ void doWhilePreIncrement(const float* __restrict__ in, float* __restrict__ out) {
  int k = 0;
  float s = 0.0f;
  do {
    s += in[blockIdx.x * 128 + 3 * k + threadIdx.x];  // expect: global load sectors=4.75 ideal=4 eta=0.84
  } while (++k < 4);
  out[blockIdx.x * 32 + threadIdx.x] = s;  // expect: global store sectors=4 ideal=4 eta=1.00
}

// The same four iterations with for (;;) and a break.
__global__ void forEverBreak(const float* __restrict__ in, float* __restrict__ out) {
  float s = 0.0f;
  for (int k = 0;; ++k) {
    if (k == 4) break;
    s += in[blockIdx.x * 128 + 3 * k + threadIdx.x];  // expect: global load sectors=4.75 ideal=4 eta=0.84
  }
  out[blockIdx.x * 32 + threadIdx.x] = s;  // expect: global store sectors=4 ideal=4 eta=1.00
}

// Clearing a buffer of n < blockDim.x elements with do/while: every thread stores once
// (the test comes after the store), all 8 warps full.
__global__ void doWhileClear(float* __restrict__ buf, int n) {
  int i = threadIdx.x;
  do {
    buf[blockIdx.x * 256 + i] = 0.0f;  // expect: global store sectors=4 ideal=4 eta=1.00
    i += 256;
  } while (i < n);
}

int main() {
  float *a, *b;
  cudaMalloc(&a, N * sizeof(float));
  cudaMalloc(&b, N * sizeof(float));
  doWhilePreIncrement<<<N / 128, 32>>>(a, b);
  forEverBreak<<<N / 128, 32>>>(a, b);
  doWhileClear<<<N / 256, 256>>>(b, 48);
  cudaDeviceSynchronize();
  return 0;
}
