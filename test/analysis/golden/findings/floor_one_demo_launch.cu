// The absolute floor on a finding's waste per run of the program (MinWastePerRun, session 15;
// docs/findings.md "Levels"): CUDA by Example's `__syncthreads` demo (panel 14, judged noise:
// "the book's single-launch demo ... runs for microseconds, most of that launch overhead")
// transposes a 16x16 tile through shared memory once, over one image whose size is a
// constant. Every count is the program's own: the grid, the block, one launch from `main`.
// The 8-way conflict is true, and wastes under 0.1 us per run: less than launching one more
// kernel, so a note. floor_sizes_from_input.cu and floor_launch_in_a_library.cu keep the same
// access a warning where a count is not the program's own. Minimal kernel written for this test.
#include <cuda_runtime.h>

#define DEMO_DIM 256

__global__ void demoTileOnce(float* image) {
  __shared__ float tile[16][16];
  const int x = threadIdx.x + blockIdx.x * blockDim.x;
  const int y = threadIdx.y + blockIdx.y * blockDim.y;
  tile[threadIdx.x][threadIdx.y] = static_cast<float>(x * y);  // finding: shared-bank-conflict=note
  __syncthreads();
  image[y * DEMO_DIM + x] = tile[threadIdx.y][threadIdx.x];  // finding: none
}

int main() {
  float* image;
  cudaMalloc(&image, DEMO_DIM * DEMO_DIM * sizeof(float));
  const dim3 grid(DEMO_DIM / 16, DEMO_DIM / 16);
  const dim3 block(16, 16);
  demoTileOnce<<<grid, block>>>(image);
  cudaDeviceSynchronize();
  return 0;
}
