// Failure mode: the program never returns (the verifier's time limit must end it).
#include <cstdio>
#include <cuda_runtime.h>
#include <unistd.h>

__global__ void touch(float* p) { p[threadIdx.x] = 1.0f; }  // expect: global store 4 sectors=4 ideal=4

int main() {
  float* p = nullptr;
  cudaMalloc(&p, 1024 * sizeof(float));
  touch<<<1, 256>>>(p);
  cudaDeviceSynchronize();
  std::fprintf(stderr, "hang: sleeping forever\n");
  for (;;) sleep(1);
}
