// One kernel launched with two block shapes (issue #19, docs/verification/README.md "Which
// launches are measured"): its column store touches 32 rows per warp in a 32x8 block and 8 rows
// (16 contiguous bytes each) in an 8x32 block, so each configuration has its own figure and a
// pooled figure would match neither. `scale` runs ten times with one configuration (pooled as before).
#include <cstdio>

__global__ void columnStore(float* out, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * height + y] = 1.0f;
}

__global__ void scale(float* a, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] *= s;
}

int main() {
  const int width = 256, height = 256;
  float* out = nullptr;
  if (cudaMalloc(&out, width * height * sizeof(float)) != cudaSuccess) return 1;
  columnStore<<<dim3(width / 32, height / 8), dim3(32, 8)>>>(out, height);
  columnStore<<<dim3(width / 8, height / 32), dim3(8, 32)>>>(out, height);
  for (int i = 0; i < 10; ++i) scale<<<width * height / 256, 256>>>(out, 0.5f);
  const cudaError_t e = cudaDeviceSynchronize();
  cudaFree(out);
  std::printf("configs_demo: %s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
