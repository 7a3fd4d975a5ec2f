// A benchmark that runs each variant of one job in turn on the same data, nothing choosing
// between them (the shape of a transpose tutorial: a naive kernel timed beside the fixed one).
// The naive kernel's store is a note naming the variant that does not waste it
// (lib/analysis/src/launch_alternatives.cpp, findVariantsRunInTurn;
// lib/report/src/alternative_level.cpp). What keeps its warning: two stages of one computation
// whose names differ only by a number (`spread_step1`, `spread_step2`), and a variant launched
// on other data (`scatterSimple` beside `scatterCoalesced` on another output). Minimal kernels
// written for this test.
#include <cuda_runtime.h>

constexpr int kTile = 32;

__global__ void transposeNaive(float* odata, const float* idata) {
  const int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
  const int width = gridDim.x * kTile;
  odata[x * width + y] = idata[y * width + x];  // finding: uncoalesced-global-access=note
}

__global__ void transposeCoalesced(float* odata, const float* idata) {
  __shared__ float tile[kTile][kTile + 1];
  const int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
  const int width = gridDim.x * kTile;
  tile[threadIdx.y][threadIdx.x] = idata[y * width + x];  // finding: none
  __syncthreads();
  const int tx = blockIdx.y * kTile + threadIdx.x, ty = blockIdx.x * kTile + threadIdx.y;
  odata[ty * width + tx] = tile[threadIdx.x][threadIdx.y];  // finding: none
}

// Two stages of one computation run in turn on the same data: not variants.
__global__ void spread_step1(float* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i * 32] += 1.0f;  // finding: uncoalesced-global-access=warning
}

__global__ void spread_step2(float* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] *= 2.0f;  // finding: none
}

// Variants by name, launched on different outputs: the launches do not say the job is the same.
__global__ void scatterSimple(float* out, const float* in) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i * 32] = in[i];  // finding: uncoalesced-global-access=warning
}

__global__ void scatterCoalesced(float* out, const float* in) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];  // finding: none
}

int main() {
  const int n = 1024;
  float *in, *out, *other;
  cudaMalloc(&in, n * n * sizeof(float));
  cudaMalloc(&out, n * n * sizeof(float));
  cudaMalloc(&other, 32 * n * n * sizeof(float));
  const dim3 grid(n / kTile, n / kTile), block(kTile, kTile);
  for (int rep = 0; rep < 100; ++rep) transposeNaive<<<grid, block>>>(out, in);
  for (int rep = 0; rep < 100; ++rep) transposeCoalesced<<<grid, block>>>(out, in);
  for (int rep = 0; rep < 100; ++rep) {
    spread_step1<<<n * n / 256, 256>>>(other, n);
    spread_step2<<<n * n / 256, 256>>>(other, n);
  }
  for (int rep = 0; rep < 100; ++rep) {
    scatterSimple<<<n * n / 256, 256>>>(other, in);
    scatterCoalesced<<<n * n / 256, 256>>>(out, in);
  }
  cudaFree(in);
  cudaFree(out);
  cudaFree(other);
  return 0;
}
