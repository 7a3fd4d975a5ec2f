// Panel-2 findings judged noise or false (docs/precision.md), reproduced by minimal kernels
// written for this test:
// - a naive kernel the file never launches while it launches its better variant (boxFilter's
//   d_boxfilter_x_global, panel 0, 22, 33, 46, 78, 117, 118): its findings are notes;
// - lanes of a 16x16 block reading one word per row (srad's J_cuda[index_w], panel 4, 21):
//   2 sectors for 32 lanes, fewer than 32 consecutive floats need: no finding;
// - a leader lane's store (one lane per warp): no access finding (its branch is a note).
#include <cuda_runtime.h>

__global__ void unlaunchedNaiveRows(const float* __restrict__ in, float* __restrict__ out, int w) {
  const int y = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0;
  for (int x = 0; x < 16; ++x) sum += in[y * w + x];  // finding: uncoalesced-global-access=note
  out[y * w] = sum;  // finding: uncoalesced-global-access=note
}

__global__ void coalescedRows(const float* __restrict__ in, float* __restrict__ out, int w) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0;
  for (int y = 0; y < 64; ++y) sum += in[y * w + x];  // finding: none
  out[x] = sum;  // finding: none
}

__global__ void rowNeighbours(const float* __restrict__ j, float* __restrict__ c, int cols) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int west = row * cols + blockIdx.x * blockDim.x - 1;
  const float here = j[row * cols + blockIdx.x * blockDim.x + threadIdx.x];  // finding: none
  c[row * cols + blockIdx.x * blockDim.x + threadIdx.x] = here - j[west];  // finding: none
}

__global__ void leaderStore(const float* __restrict__ in, float* __restrict__ sums, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;  // finding: none
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if (threadIdx.x % 32 == 0) sums[i / 32] = v;  // finding: divergent-branch=note
}

int main() {
  float *in, *out, *sums;
  cudaMalloc(&in, 1 << 24);
  cudaMalloc(&out, 1 << 24);
  cudaMalloc(&sums, 1 << 20);
  coalescedRows<<<16, 256>>>(in, out, 4096);
  rowNeighbours<<<dim3(64, 64), dim3(16, 16)>>>(in, out, 1024);
  leaderStore<<<64, 256>>>(in, sums, 1 << 14);
  cudaDeviceSynchronize();
  return 0;
}
