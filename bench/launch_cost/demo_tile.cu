// What the floor's example wastes, timed (test/analysis/golden/findings/floor_one_demo_launch.cu):
// the 16x16 shared tile stored transposed (an 8-way conflict) against the same tile padded to
// 17 columns (no conflict), over images of 256 to 4096 pixels a side. Prints CSV: dim, variant,
// microseconds per launch (500 launches back to back, cudaEvent), and the single launch's time
// (one launch after a synchronise, what a program that runs it once sees).
#include <cstdio>
#include <cuda_runtime.h>

template <int Columns>
__global__ void demoTile(unsigned char* image, int dim) {
  __shared__ float tile[16][Columns];
  const int x = threadIdx.x + blockIdx.x * blockDim.x;
  const int y = threadIdx.y + blockIdx.y * blockDim.y;
  tile[threadIdx.x][threadIdx.y] = static_cast<float>(x * y);
  __syncthreads();
  image[y * dim + x] = static_cast<unsigned char>(tile[threadIdx.y][threadIdx.x]);
}

template <int Columns>
static void timeOne(unsigned char* image, int dim) {
  const dim3 grid(dim / 16, dim / 16), block(16, 16);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  for (int i = 0; i < 50; ++i) demoTile<Columns><<<grid, block>>>(image, dim);
  cudaDeviceSynchronize();
  cudaEventRecord(a);
  for (int i = 0; i < 500; ++i) demoTile<Columns><<<grid, block>>>(image, dim);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float many = 0;
  cudaEventElapsedTime(&many, a, b);
  cudaEventRecord(a);
  demoTile<Columns><<<grid, block>>>(image, dim);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float once = 0;
  cudaEventElapsedTime(&once, a, b);
  std::printf("%d,%s,%.3f,%.3f\n", dim, Columns == 16 ? "conflict" : "padded", 1000.0 * many / 500, 1000.0 * once);
}

int main() {
  unsigned char* image = nullptr;
  cudaMalloc(&image, 4096 * 4096);
  std::printf("dim,variant,us_per_launch_back_to_back,us_single_launch\n");
  for (int rep = 0; rep < 2; ++rep)
    for (int dim : {256, 1024, 4096}) {
      timeOne<16>(image, dim);
      timeOne<17>(image, dim);
    }
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
