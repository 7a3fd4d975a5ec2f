// Panel findings 2, 5, 75, 84, 88, 89, 90 (judged false: the bytes of one pixel or vector
// written or read by the same thread in consecutive statements, which L1 and L2 serve as
// one). Minimal kernels written for this test, after the shapes of Mandelbrot's uchar4
// refinement, a BGRA texture fill, a vec2 output and an interleaved BGR output.
#include <cuda_runtime.h>

typedef float vec2[2];

__global__ void refine(uchar4* __restrict__ dst, int n) {
  const int pixel = blockIdx.x * blockDim.x + threadIdx.x;
  if (pixel < n) {
    dst[pixel].x = dst[pixel].x / 2;  // finding: none
    dst[pixel].y = dst[pixel].y / 2;  // finding: none
    dst[pixel].z = dst[pixel].z / 2;  // finding: none
  }
}

__global__ void fillBgra(unsigned char* surface, int width, size_t pitch) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y;
  if (x >= width) return;
  unsigned char* pixel = surface + y * pitch + 4 * x;
  pixel[0] = 255;  // finding: none
  pixel[1] = 128;  // finding: none
  pixel[2] = 64;   // finding: none
  pixel[3] = 0;    // finding: none
}

__global__ void writePoints(vec2* xyVector, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n) {
    xyVector[tid][0] = 1.0f;  // finding: none
    xyVector[tid][1] = 2.0f;  // finding: none
  }
}

__global__ void writeBgr(unsigned char* dst, int width, int offset) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y;
  if (x >= width) return;
  *(dst + j * offset + x * 3 + 0) = 1;  // finding: none
  *(dst + j * offset + x * 3 + 1) = 2;  // finding: none
  *(dst + j * offset + x * 3 + 2) = 3;  // finding: none
}

int main() {
  uchar4* img;
  unsigned char* surface;
  vec2* points;
  cudaMalloc(&img, 1 << 22);
  cudaMalloc(&surface, 1 << 24);
  cudaMalloc(&points, 1 << 22);
  refine<<<512, 256>>>(img, 512 * 256);
  fillBgra<<<dim3(4, 512), 256>>>(surface, 1024, 4096);
  writePoints<<<256, 256>>>(points, 256 * 256);
  writeBgr<<<dim3(4, 512), 256>>>(surface, 1024, 3072);
  cudaDeviceSynchronize();
  return 0;
}
