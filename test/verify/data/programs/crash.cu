// Failure mode: the program dies of a signal after a kernel ran.
#include <csignal>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void touch(float* p) { p[threadIdx.x] = 1.0f; }  // expect: global store 4 sectors=4 ideal=4

int main() {
  float* p = nullptr;
  cudaMalloc(&p, 1024 * sizeof(float));
  touch<<<1, 256>>>(p);
  cudaDeviceSynchronize();
  std::fprintf(stderr, "crash: raising SIGSEGV\n");
  std::raise(SIGSEGV);
  return 0;
}
