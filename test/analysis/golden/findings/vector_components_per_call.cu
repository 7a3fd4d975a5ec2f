// One helper's component stores called for several elements: gpumembench's shmembench
// `set_vector(shm_buffer, tid + k * blockDim.x, v)`, six calls of `target[offset].x = v.x; ...
// .w = v.w;` on a shared float4 (blind panel 32's sweep). nvcc merges each call's four stores
// into one 16-byte store (as vector_components_merged.cu shows for one element): no conflict.
// The accesses of all the calls share one text and were taken as one run, of which only the
// elements of the first call were merged; the others were reported as a 4-way conflict each
// (lib/analysis/src/compiler_vectorised.cpp, `vectorComponentsMerged`, now element by element).
// Minimal kernel written for this test.
#include <cuda_runtime.h>

__device__ void setVector(float4* target, int offset, float4 v) {
  target[offset].x = v.x;  // finding: none
  target[offset].y = v.y;  // finding: none
  target[offset].z = v.z;  // finding: none
  target[offset].w = v.w;  // finding: none
}

// Two components of each element: one 8-byte store per call (2 wavefronts per quarter-warp
// phase pair at a 16-byte stride: the 2-way wide access the rule keeps as a note).
__device__ void setPair(float4* target, int offset, float a, float b) {
  target[offset].x = a;  // finding: wide-shared-access-conflict=note
  target[offset].y = b;  // finding: wide-shared-access-conflict=note
}

extern __shared__ float dynamicBuffer[];

__global__ void swapStages(float4* g) {
  float4* buffer = (float4*)dynamicBuffer;
  const int tid = threadIdx.x;
  setVector(buffer, tid + 0 * blockDim.x, make_float4(tid, 0.0f, 0.0f, 1.0f));
  setVector(buffer, tid + 1 * blockDim.x, make_float4(tid + 1, 0.0f, 0.0f, 1.0f));
  setVector(buffer, tid + 2 * blockDim.x, make_float4(tid + 3, 0.0f, 0.0f, 1.0f));
  setVector(buffer, tid + 3 * blockDim.x, make_float4(tid + 7, 0.0f, 0.0f, 1.0f));
  setPair(buffer, tid + 4 * blockDim.x, 1.0f, 2.0f);
  setPair(buffer, tid + 5 * blockDim.x, 3.0f, 4.0f);
  __syncthreads();
  g[blockIdx.x * blockDim.x + tid] = buffer[(tid + 1) % blockDim.x];
}

int main() {
  float4* g;
  cudaMalloc(&g, 1 << 22);
  for (int i = 0; i < 100; ++i) swapStages<<<1024, 256, 6 * 256 * sizeof(float4)>>>(g);
  cudaDeviceSynchronize();
  return 0;
}
