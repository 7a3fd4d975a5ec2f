// Unknown runtime scalars are taken large (4096). For an extent - a scalar that bounds an index
// or a loop the access runs under - that is the program's case. A scalar that only spaces the
// lanes' addresses (a pooling stride, a pad, a window) is as often 1 or 2, and the figure flips
// with it: blind panel 10 judged two such darknet warnings false (maxpool, col2im;
// docs/precision.md, session 12). Their findings are notes naming the values taken
// (lib/report/src/guessed_value_level.cpp). Minimal kernels written for this test.
#include <cstdlib>
#include <cuda_runtime.h>

// A pooling stride: it spaces the lanes and bounds nothing.
__global__ void poolRuntimeStride(const float* __restrict__ in, float* __restrict__ out, int n, int stride) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  out[j] = in[j * stride];  // finding: uncoalesced-global-access=note
}

// The same kernel given its stride by the host: judged on the real value.
__global__ void poolKnownStride(const float* __restrict__ in, float* __restrict__ out, int n, int stride) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  out[j] = in[j * stride];  // finding: uncoalesced-global-access=warning
}

// A row length that bounds the thread's loop: an extent, taken large as programs make it.
__global__ void rowSums(const float* __restrict__ in, float* __restrict__ out, int n, int len) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float s = 0.0f;
  for (int x = 0; x < len; ++x) s += in[t * len + x];  // finding: uncoalesced-global-access=warning
  out[t] = s;
}

int main(int argc, char** argv) {
  const int n = std::atoi(argv[1]), stride = std::atoi(argv[2]), len = std::atoi(argv[3]);
  float *in, *out;
  cudaMalloc(&in, 1 << 28);
  cudaMalloc(&out, 1 << 20);
  for (int it = 0; it < 10; ++it) {
    poolRuntimeStride<<<(n + 255) / 256, 256>>>(in, out, n, stride);
    rowSums<<<(n + 255) / 256, 256>>>(in, out, n, len);
  }
  // Its share of the program must not make it a note for another reason.
  for (int it = 0; it < 1000; ++it) poolKnownStride<<<(n + 255) / 256, 256>>>(in, out, n, 8);
  cudaDeviceSynchronize();
  return 0;
}
