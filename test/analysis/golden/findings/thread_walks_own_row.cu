// Panel 3 judged findings like these false (docs/precision.md): each thread walks its own row, so
// the bytes of a sector this iteration does not use are the same thread's next iterations'
// (particlefilter's ind[i * countOnes + y], huffman's srcData[offset + i]), and L1 serves the
// loads, L2 merges the stores. Measured on the H200 (bench/cache_reuse/h200) the caches do serve
// them (87 % L1 hits, DRAM traffic near the ideal), yet such a walk takes 2.9x to 4.0x the time of
// the same rows read coalesced, 12x to 15x as stores: every request still moves 32 sectors. So
// they stay warnings, with a note that says what the caches do and what it costs. A walk that
// moves a row per iteration gets no such note. A short row costs nothing measurable (the same
// bench, short_rows.csv: loads of up to 32 bytes per thread 0.92x to 1.01x, stores of up to 16
// bytes 0.93x to 0.97x, 32-byte stores 2.9x to 5.2x): register blocking of 2 or 4 elements per
// thread (a merge's `a[depth * tid + i]`) is a note; a 32-byte store walk stays a warning.
// Minimal kernels written for this test.
#include <cuda_runtime.h>

__global__ void ownRowLoad(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0;
  for (int x = 0; x < 64; ++x) sum += in[i * 64 + x];  // finding: uncoalesced-global-access=warning
  out[i] = sum;  // finding: none
}

__global__ void ownRowStore(const float* __restrict__ in, int* __restrict__ ind, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int y = 0; y < 64; ++y) ind[i * 64 + y] = static_cast<int>(in[y]);  // finding: uncoalesced-global-access=warning
}

__global__ void columnWalk(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0;
  for (int x = 0; x < 64; ++x) sum += in[x * 1024 * 64 + i * 64];  // finding: uncoalesced-global-access=warning
  out[i] = sum;  // finding: none
}

// Register blocking, CUDPP's merge: 2 and 4 keys per thread (lanes 8 and 16 bytes apart).
__global__ void blockedLoads(const int* __restrict__ keys, int* __restrict__ out) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int a[4];
#pragma unroll
  for (int i = 0; i < 2; ++i) a[i] = keys[2 * tid + i];  // finding: uncoalesced-global-access=note
  int sum = a[0] + a[1];
#pragma unroll
  for (int i = 0; i < 4; ++i) a[i] = keys[(1 << 22) + 4 * tid + i];  // finding: uncoalesced-global-access=note
  out[tid] = sum + a[0] + a[1] + a[2] + a[3];  // finding: none
}

__global__ void blockedStores(const int* __restrict__ in, int* __restrict__ out) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = in[tid];  // finding: none
#pragma unroll
  for (int i = 0; i < 4; ++i) out[4 * tid + i] = v + i;  // finding: uncoalesced-global-access=note
#pragma unroll
  for (int i = 0; i < 8; ++i) out[(1 << 22) + 8 * tid + i] = v - i;  // finding: uncoalesced-global-access=warning
}

int main() {
  float *in, *out;
  int* ind;
  cudaMalloc(&in, 1 << 26);
  cudaMalloc(&out, 1 << 20);
  cudaMalloc(&ind, 1 << 24);
  // Repeated, as a program's steps are: launched once, these grids waste less per run than a
  // launch costs, a note under MinWastePerRun (floor_one_demo_launch.cu).
  for (int rep = 0; rep < 100; ++rep) {
    ownRowLoad<<<4, 256>>>(in, out, 1024);
    ownRowStore<<<4, 256>>>(in, ind, 1024);
    columnWalk<<<4, 256>>>(in, out, 1024);
    blockedLoads<<<64, 256>>>(ind, ind);
    blockedStores<<<64, 256>>>(ind, ind);
  }
  cudaDeviceSynchronize();
  return 0;
}
