// A thread-private array's element read back in the iteration that wrote it is the value the
// thread stored, held in a register (nvcc keeps a fully unrolled `si[i]` so): nheqminer's
// Equihash rounds index their bucket's slots with `si[i] = i * THREADS + threadid` and read
// `round0trees[bucketid] + si[i]`, consecutive 32-byte slots; the read-back was data from
// memory, and the slots' loads "went through loaded indices, 1 to 32 sectors per request"
// (blind panel 41 judged it false). lib/analysis/src/register_forwarding.h keeps the stored
// integer with the value nvcc holds (AvailableValues::valueAt; Interpreter::loaded). A store
// under a branch the read is not under leaves the read as it was. Minimal kernels written for
// this test.
#include <cuda_runtime.h>

__global__ void slotsPerThread(const uint4* __restrict__ slots, uint4* __restrict__ out, unsigned n) {
  unsigned si[2];
#pragma unroll
  for (unsigned i = 0; i != 2; ++i) {
    si[i] = i * 256 + threadIdx.x;
    if (si[i] >= n) break;
    out[blockIdx.x * 512 + si[i]] = slots[blockIdx.x * 512 + si[i]];  // finding: none
  }
}

__global__ void storedUnderABranch(const float* __restrict__ in, float* __restrict__ out, const int* __restrict__ keys) {
  int at[1];
  at[0] = threadIdx.x;
  if (keys[blockIdx.x] > 0) at[0] = keys[blockIdx.x * 256 + threadIdx.x];  // finding: none
  out[blockIdx.x * 256 + threadIdx.x] = in[at[0]];  // finding: scattered-indirect-access=note
}

void launch(const uint4* slots, uint4* out, const float* in, float* fout, const int* keys) {
  slotsPerThread<<<1024, 256>>>(slots, out, 400);
  storedUnderABranch<<<1024, 256>>>(in, fout, keys);
}
