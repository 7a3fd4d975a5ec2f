// A `return` in a __device__ helper called inside a loop ends the call, not the loop
// (lib/analysis/src/interpreter_statements.cpp, Frame::loopDepth): Kangaroo's `_ModInv`, which
// returns early when there is no inverse, is called in the `for (int run = 0; run < NB_RUN;
// run++)` of a device function the kernel calls, and the barrier of the store helper called
// after that loop was reported as guarded by "!(return in for (...))" (blind panel 31: false;
// every thread reaches it). A return of the kernel itself in its loop still guards what follows
// (barrier_after_exits.cu). Minimal kernels written for this test.
#include <cuda_runtime.h>

__device__ void invert(unsigned* r) {
  unsigned u = r[0], steps = 0;
  while (u > 1u) {  // the helper's own loop, before its early return
    u = (u & 1u) ? 3u * u + 1u : u / 2u;
    ++steps;
  }
  if (u == 0u) {
    r[1] = 0u;
    return;  // no inverse: this call ends here
  }
  r[1] = steps;
}

__device__ void store(unsigned* data, const unsigned* v) {
  __shared__ unsigned tile[256];
  __syncthreads();  // finding: none
  tile[threadIdx.x] = v[1];
  __syncthreads();  // finding: none
  data[blockIdx.x * blockDim.x + threadIdx.x] = tile[255 - threadIdx.x];
}

__device__ void compute(unsigned* data, int runs) {
  unsigned v[2];
  v[0] = data[blockIdx.x * blockDim.x + threadIdx.x];
  for (int run = 0; run < runs; ++run) {
    v[1] = run;
    invert(v);
  }
  store(data, v);
}

__global__ void steps(unsigned* data, int runs) { compute(data, runs); }

int main() {
  unsigned* d;
  cudaMalloc(&d, 1 << 20);
  steps<<<1024, 256>>>(d, 16);
  return 0;
}
