// Data-dependent indices into an object whose size the code fixes: the lanes can scatter only
// over the sectors that object holds. VanitySearch's base58 encoder reads
// `pszBase58[digits[...]]`, a 59-byte string literal, and was reported as "1 to 32 sectors per
// request" with a cost of 64.5 % of the kernel's memory time; blind panel 32 judged it false (at
// most 2 to 3 sectors, all in L1). The range is capped by the object's size now
// (model::Access::objectBytes, lib/model/src/access_model.cpp); a gather that cannot touch more
// sectors than a coalesced request is no finding. Minimal kernels written for this test.
#include <cuda_runtime.h>

__device__ float weights[8] = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 0.8f};
__device__ const char* alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

__global__ void weigh(const unsigned char* classes, const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  // 32 bytes of weights: 2 sectors at most, fewer than the 4 a coalesced request of floats takes.
  out[i] = in[i] * weights[classes[i] & 7];  // finding: none
}

__global__ void encode(const unsigned char* digits, char* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  // 63 bytes of characters: 1 to 3 sectors where a coalesced request of bytes takes 1.
  out[i] = alphabet[digits[i] % 62];  // finding: scattered-indirect-access=note
}

int main() {
  unsigned char* c;
  float *in, *out;
  char* text;
  const int n = 1 << 20;
  cudaMalloc(&c, n);
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMalloc(&text, n);
  for (int step = 0; step < 10; ++step) {
    weigh<<<n / 256, 256>>>(c, in, out, n);
    encode<<<n / 256, 256>>>(c, text, n);
  }
  cudaDeviceSynchronize();
  return 0;
}
