// floor_one_demo_launch.cu's kernel over an image whose size the command line gives: the grid
// rests on a run-time value (taken at the program's default for the cost), so the waste per
// run is not the program's own count and MinWastePerRun does not apply: a warning.
#include <cuda_runtime.h>
#include <cstdlib>

__global__ void demoTileSized(float* image, int width) {
  __shared__ float tile[16][16];
  const int x = threadIdx.x + blockIdx.x * blockDim.x;
  const int y = threadIdx.y + blockIdx.y * blockDim.y;
  tile[threadIdx.x][threadIdx.y] = static_cast<float>(x * y);  // finding: shared-bank-conflict=warning
  __syncthreads();
  image[y * width + x] = tile[threadIdx.y][threadIdx.x];  // finding: none
}

int main(int argc, char** argv) {
  const int width = argc > 1 ? atoi(argv[1]) : 256;
  float* image;
  cudaMalloc(&image, static_cast<size_t>(width) * width * sizeof(float));
  const dim3 grid(width / 16, width / 16);
  const dim3 block(16, 16);
  demoTileSized<<<grid, block>>>(image, width);
  cudaDeviceSynchronize();
  return 0;
}
