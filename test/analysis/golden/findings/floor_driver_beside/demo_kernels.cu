// The absolute floor (MinWastePerRun, docs/findings.md "Levels") where `main` is in another
// file of the program: driver.cpp beside this file calls the wrappers, as a course's or a
// benchmark's C++ driver calls its kernels' `.cu`. Session 15 counted only launches from the
// unit's own `main`, so the demo tile below stayed a warning though driver.cpp shows it runs
// once over a 256x256 image (launch_repeats.cpp: a count through the program's other files
// is its own when every loop on the way is counted). floor_sizes_from_input.cu and
// floor_launch_in_a_library.cu keep the same access a warning where a count is not the
// program's own. Minimal kernel written for this test.
#include <cuda_runtime.h>

#define BESIDE_DIM 256

__global__ void besideTileOnce(float* image) {
  __shared__ float tile[16][16];
  const int x = threadIdx.x + blockIdx.x * blockDim.x;
  const int y = threadIdx.y + blockIdx.y * blockDim.y;
  tile[threadIdx.x][threadIdx.y] = static_cast<float>(x * y);  // finding: shared-bank-conflict=note
  __syncthreads();
  image[y * BESIDE_DIM + x] = tile[threadIdx.y][threadIdx.x];  // finding: none
}

void runDemoOnce(float* image) {
  const dim3 grid(BESIDE_DIM / 16, BESIDE_DIM / 16);
  const dim3 block(16, 16);
  besideTileOnce<<<grid, block>>>(image);
}
