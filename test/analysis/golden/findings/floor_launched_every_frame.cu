// floor_one_demo_launch.cu's kernel launched once per frame of a loop the code counts (1,000
// frames): the same waste per launch, a thousand times per run, well above MinWastePerRun: a
// warning. The floor weighs what a run wastes, not what one launch does.
#include <cuda_runtime.h>

#define FRAME_DIM 256

__global__ void demoTileEveryFrame(float* image) {
  __shared__ float tile[16][16];
  const int x = threadIdx.x + blockIdx.x * blockDim.x;
  const int y = threadIdx.y + blockIdx.y * blockDim.y;
  tile[threadIdx.x][threadIdx.y] = static_cast<float>(x * y);  // finding: shared-bank-conflict=warning
  __syncthreads();
  image[y * FRAME_DIM + x] = tile[threadIdx.y][threadIdx.x];  // finding: none
}

int main() {
  float* image;
  cudaMalloc(&image, FRAME_DIM * FRAME_DIM * sizeof(float));
  const dim3 grid(FRAME_DIM / 16, FRAME_DIM / 16);
  const dim3 block(16, 16);
  for (int frame = 0; frame < 1000; ++frame) demoTileEveryFrame<<<grid, block>>>(image);
  cudaDeviceSynchronize();
  return 0;
}
