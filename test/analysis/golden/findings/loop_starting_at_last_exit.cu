// A loop that starts where the loop before it ended (a scan's down-sweep after its up-sweep,
// a reduction's second phase): its variable's value after it ends is known only through the
// first loop's. Until session 31 the analysis worked the loops' exits out in a chain that
// left the first unknown while the second was found (lane_evaluator.h, launchExits): `t` after
// the second loop was taken as a guessed 4096 and the store below was a note "only under a
// guess". Each exit is now found after the exits its loop's bounds name: s ends at 256,
// t at 32, and the store's lanes are 32 elements apart. Minimal kernel written for this test.
#include <cuda_runtime.h>

__global__ void chainedLoops(float* __restrict__ out) {
  __shared__ float buf[512];
  const int tid = threadIdx.x;
  buf[tid] = 0.0f;
  int s = 1;
  for (; s < blockDim.x; s <<= 1) buf[tid] += 1.0f;
  int t = s;
  for (; t > 32; t >>= 1) buf[tid] += 2.0f;
  out[blockIdx.x * blockDim.x + tid * t] = buf[tid];  // finding: uncoalesced-global-access=warning
}

int main() {
  float* out;
  cudaMalloc(&out, (1 << 24) * sizeof(float));
  for (int k = 0; k < 10; ++k) chainedLoops<<<4096, 256>>>(out);
  cudaDeviceSynchronize();
  return 0;
}
