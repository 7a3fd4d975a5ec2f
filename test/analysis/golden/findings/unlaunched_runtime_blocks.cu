// A file whose launches all compute their block at run time (boxFilter's `nthreads`, panel 2)
// still launches kernels: the kernel it never launches gets notes, the launched one warnings.
#include <cuda_runtime.h>
#include <cstdlib>

__global__ void unlaunchedColumnWalk(const float* __restrict__ in, float* __restrict__ out, int w) {
  const int y = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0;
  for (int x = 0; x < 16; ++x) sum += in[y * w + x];  // finding: uncoalesced-global-access=note
  out[y] = sum;  // finding: none
}

__global__ void runtimeBlockColumnWalk(const float* __restrict__ in, float* __restrict__ out, int w) {
  const int y = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0;
  for (int x = 0; x < 16; ++x) sum += in[y * w + x];  // finding: uncoalesced-global-access=warning
  out[y] = sum;  // finding: none
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 1 << 24);
  cudaMalloc(&out, 1 << 20);
  int threads = 256;
  if (getenv("THREADS")) threads = atoi(getenv("THREADS"));
  runtimeBlockColumnWalk<<<16, threads>>>(in, out, 4096);
  cudaDeviceSynchronize();
  return 0;
}
