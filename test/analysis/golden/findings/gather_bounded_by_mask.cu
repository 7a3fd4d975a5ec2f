// A data-dependent index that a mask, a remainder or a shift bounds: the lanes of a warp can
// scatter only over the elements it lets them reach. cudahandbook's radix sort counts
// `atomicAdd(dptrHistogram + ((in[i] & mask) >> shift), 1)` with one bit a pass, two counters,
// and was "1 to 32 sectors per request" with 77.8 % of its kernel's memory time; blind panel 40
// judged it false (at most 2 sectors). The range is capped by the spread the index allows now
// (lane_spread.h), as by a small object's size (gather_from_small_table.cu): a gather that
// cannot touch more sectors than a coalesced request is no finding. Minimal kernels written for
// this test.
#include <cuda_runtime.h>

__global__ void histogram(int* hist, const unsigned* keys, int n, int shift, int mask) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    const int bucket = (keys[i] & mask) >> shift;  // finding: none
    atomicAdd(hist + bucket, 1);  // finding: none
  }
}

// Eight floats of a table passed by pointer, chosen by a remainder: 32 bytes, however the
// keys fall (a remainder of a loaded value may be negative: 15 floats either side).
__global__ void classes(const float* table, const int* keys, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = table[keys[i] % 8];  // finding: none
}

// 256 counters of 4 bytes: the lanes can still land in a sector each.
__global__ void bytes(int* hist, const unsigned* keys, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(hist + (keys[i] & 255), 1);  // finding: scattered-indirect-access=note
}

void launch(int* hist, const unsigned* keys, const float* table, const int* ikeys, float* out, int n) {
  histogram<<<64, 256>>>(hist, keys, n, 0, 1);
  classes<<<(n + 255) / 256, 256>>>(table, ikeys, out, n);
  bytes<<<(n + 255) / 256, 256>>>(hist, keys, n);
}
