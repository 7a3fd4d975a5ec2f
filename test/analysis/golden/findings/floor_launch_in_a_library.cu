// floor_one_demo_launch.cu's kernel launched by a function this file never calls (a library's
// entry point, called from code the analysis does not see): how often a run calls it is not
// the program's own count, so MinWastePerRun does not apply: a warning.
#include <cuda_runtime.h>

#define LIBRARY_DIM 256

__global__ void demoTileInLibrary(float* image) {
  __shared__ float tile[16][16];
  const int x = threadIdx.x + blockIdx.x * blockDim.x;
  const int y = threadIdx.y + blockIdx.y * blockDim.y;
  tile[threadIdx.x][threadIdx.y] = static_cast<float>(x * y);  // finding: shared-bank-conflict=warning
  __syncthreads();
  image[y * LIBRARY_DIM + x] = tile[threadIdx.y][threadIdx.x];  // finding: none
}

void renderTile(float* image) {
  const dim3 grid(LIBRARY_DIM / 16, LIBRARY_DIM / 16);
  const dim3 block(16, 16);
  demoTileInLibrary<<<grid, block>>>(image);
}
