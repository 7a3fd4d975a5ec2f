// A value this thread has just stored stays in a register across its stores to other words of
// the same array: nvcc tells `first[3]` from `first[0]` (a constant distance apart, no overlap),
// so `first[0] = basis - 0.5f - first[3]` makes no load (NiftyReg's B-spline helper writing a
// thread's four values into shared memory, whose re-reads blind panel 34 judged false with the
// PTX: no ld.shared for them). lib/analysis/src/register_forwarding.cpp,
// AvailableValues::written. Minimal kernel written for this test.
#include <cuda_runtime.h>

__device__ inline void firstValues(const float basis, float* first) {
  // The stores themselves conflict (each thread's four words 16 bytes from the next thread's);
  // the re-reads, each on a line of its own, make no instruction.
  first[3] = basis * basis / 2.f;  // finding: shared-bank-conflict=warning
  first[0] = basis - 0.5f -  // finding: shared-bank-conflict=warning
             first[3];  // finding: none
  first[2] = 1.f + first[0] -  // finding: shared-bank-conflict=warning
             2.f * first[3];  // finding: none
  first[1] = -first[0] - first[2] -  // finding: shared-bank-conflict=warning
             first[3];  // finding: none
}

__global__ void basisValues(float* out, const float* in) {
  __shared__ float values[4 * 256];
  const unsigned i = 4 * threadIdx.x;
  firstValues(in[blockIdx.x * blockDim.x + threadIdx.x], &values[i]);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = values[threadIdx.x];
}

int main() {
  float* m;
  cudaMalloc(&m, 1 << 26);
  for (int i = 0; i < 100; ++i) basisValues<<<1024, 256>>>(m, m);
  cudaDeviceSynchronize();
  return 0;
}
