// A thread-private array (local memory) holds each thread's own values: an element read back at
// a uniform index is still per-thread data, so an index computed from it is per-thread too (the
// rank of a key in a merge, CUDPP's simpleMerge) and a store through it scatters: a gather note,
// not a fixed stride (interpreter_memory.cpp, `varyingLocals`). A private array that only ever
// holds uniform values (constant taps) keeps its loads uniform.
// Minimal kernels written for this test.
#include <cuda_runtime.h>

__global__ void rankStore(const int* __restrict__ keys, const int* __restrict__ other, int* __restrict__ out) {
  __shared__ int b[256];
  const int tid = threadIdx.x;
  int mine[2];
#pragma unroll
  for (int i = 0; i < 2; ++i) mine[i] = keys[blockIdx.x * 512 + 2 * tid + i];  // finding: uncoalesced-global-access=note
  b[tid] = other[blockIdx.x * 256 + tid];  // finding: none
  __syncthreads();
  const int index = b[128] < mine[0] ? 128 : 0;
  out[blockIdx.x * 1024 + 2 * tid + index] = mine[0];  // finding: scattered-indirect-access=note
}

__global__ void taps(const float* __restrict__ in, float* __restrict__ out) {
  int offs[3];
  offs[0] = 0;
  offs[1] = 1;
  offs[2] = 2;
  const int i = blockIdx.x * 256 + threadIdx.x;
  float s = 0;
  for (int k = 0; k < 3; ++k) s += in[i + offs[k] * 65536];  // finding: none
  out[i] = s;  // finding: none
}

int main() {
  int *keys, *out;
  float *in, *fout;
  cudaMalloc(&keys, 1 << 24);
  cudaMalloc(&out, 1 << 24);
  cudaMalloc(&in, 1 << 24);
  cudaMalloc(&fout, 1 << 24);
  rankStore<<<64, 256>>>(keys, keys, out);
  taps<<<64, 256>>>(in, fout);
  return 0;
}
