// Findings that are true but not worth a change, and their look-alikes that are.
// - The left halo column of a tile (one lane per row) beside the tile's coalesced row loads of
//   the same array: no tile helps (the block's warps share none of its sectors) and transposing
//   the array would scatter the row loads, which run 8x as often: a note
//   (lib/report/src/orientation_level.cpp). The strided side of a transpose done in place on one
//   array stays a warning: the block's warps together read whole sectors, which a tile can use.
// - A 2-way bank conflict (one more wavefront per request) is a note; an 8-way one a warning
//   (NoteUpToDegree, lib/report/src/filter.cpp).
// Minimal kernels written for this test.
#include <cuda_runtime.h>

__global__ void haloTile(const float* __restrict__ in, float* __restrict__ out, int w) {
  __shared__ float tile[8][33];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int gx = blockIdx.x * 32 + tx, gy = blockIdx.y * 8 + ty;
  tile[ty][tx + 1] = in[gy * w + gx];  // finding: none
  if (ty == 0 && tx < 8 && blockIdx.x > 0)
    tile[tx][0] = in[(blockIdx.y * 8 + tx) * w + blockIdx.x * 32 - 1];  // finding: uncoalesced-global-access=note
  __syncthreads();
  out[gy * w + gx] = tile[ty][tx] + tile[ty][tx + 1];  // finding: none
}

__global__ void swapInPlace(float* __restrict__ a, int n) {
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
  if (blockIdx.x < blockIdx.y) {  // below the diagonal, whole blocks: x < y
    const float t = a[y * n + x];  // finding: none
    a[y * n + x] = a[x * n + y];  // finding: inverted-thread-axes=warning
    a[x * n + y] = t;  // finding: inverted-thread-axes=warning
  }
}

__global__ void conflicts(float* __restrict__ out) {
  __shared__ float s[32 * 32];
  const int t = threadIdx.x;
  s[t] = static_cast<float>(t);  // finding: none
  __syncthreads();
  out[blockIdx.x * 32 + t] = s[2 * t] + s[8 * t];  // finding: shared-bank-conflict=note shared-bank-conflict=warning
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 1 << 24);
  cudaMalloc(&out, 1 << 24);
  // Repeated, as a program's steps are: launched once, these grids waste less per run than a
  // launch costs, a note under MinWastePerRun (floor_one_demo_launch.cu).
  for (int rep = 0; rep < 100; ++rep) {
    haloTile<<<dim3(32, 128), dim3(32, 8)>>>(in, out, 1024);
    swapInPlace<<<dim3(32, 128), dim3(32, 8)>>>(in, 1024);
    conflicts<<<131072, 32>>>(out);
  }
  cudaDeviceSynchronize();
  return 0;
}
