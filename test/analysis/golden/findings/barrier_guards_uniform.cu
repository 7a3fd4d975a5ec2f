// Barriers under guards that are the same for every thread of a block stay quiet, also when
// a helper computes the guard from a pointer to the kernel's parameter struct (`more(&p)`,
// interpreter_calls.cpp, registerRecordAddress); a guard on the thread index keeps its error.
#include <cuda_runtime.h>

struct Params {
  int n;
  int iter;
  const float* in;
};

__device__ bool more(const Params* p) { return blockIdx.x * 4 + p->iter < p->n; }
__device__ bool moreByRef(const Params& p) { return blockIdx.x + p.iter < p.n; }
__device__ int rowsPerBlock(int m) { return m / gridDim.x; }

__global__ void blockUniform(Params p, float* __restrict__ out, int m) {
  __shared__ float s[256];
  if (more(&p)) {
    s[threadIdx.x] = p.in[blockIdx.x * 256 + threadIdx.x];  // finding: none
    __syncthreads();  // finding: none
    out[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];  // finding: none
  }
  if (moreByRef(p)) {
    __syncthreads();  // finding: none
  }
  const Params* q = &p;
  if (q->iter < 3 && rowsPerBlock(m) > static_cast<int>(blockIdx.y)) {
    __syncthreads();  // finding: none
  }
  if (threadIdx.x < m) {
    __syncthreads();  // finding: barrier-in-divergent-code=error
  }
}

int main() {
  Params p{};
  float* out;
  cudaMalloc(&out, 64 * 256 * sizeof(float));
  blockUniform<<<64, 256>>>(p, out, 100);
  return 0;
}
