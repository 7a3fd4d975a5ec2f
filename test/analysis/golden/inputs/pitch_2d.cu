// pitch_2d.cu: 2D images with a row pitch in bytes (cudaMallocPitch style), addressed
// through char* arithmetic, with the pitch passed as a literal at the launch or unknown.
#include <cuda_runtime.h>

constexpr int WIDTH = 500;
constexpr int HEIGHT = 512;

// Block 32 x 8: each warp is 32 consecutive floats of one row; the pitch (2048 bytes) keeps
// rows sector-aligned. The grid's last column of blocks (x 480..511, width 500) runs 20
// lanes per warp: 3 sectors there, so over the 16 columns (15 x 4 + 3) / 16 = 3.9375.
__global__ void scalePitched(float* img, size_t pitch, int width, int height, float s) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    float* row = (float*)((char*)img + y * pitch);
    row[x] *= s;  // expect: global load sectors=3.9375 ideal=3.9375 eta=1.00 ; global store sectors=3.9375 ideal=3.9375 eta=1.00
  }
}

// Block 16 x 16 and a pitch of 2112 bytes (66 sectors): each warp is two 64-byte runs,
// both sector-aligned. In the grid's last column of blocks (x 496..511) 4 lanes per row
// run: two 16-byte runs in 2 sectors for 1 ideal; over the 32 columns 3.9375 for 3.90625.
__global__ void copyPitched16(const float* src, size_t srcPitch, float* dst, size_t dstPitch, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    const float* s = (const float*)((const char*)src + y * srcPitch) + x;
    float* d = reinterpret_cast<float*>(reinterpret_cast<char*>(dst) + y * dstPitch);
    d[x] = *s;  // expect: global store sectors=3.9375 ideal=3.90625 eta=0.99 ; global load sectors=3.9375 ideal=3.90625 eta=0.99
  }
}

// Pitch in elements, transposed use: lanes walk down a column (x indexes rows).
__global__ void columnRead(const float* __restrict__ img, float* __restrict__ out, int pitchElems) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * 512 + x] = img[x * pitchElems + y];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=32 ideal=4 eta=0.12
}

// Row pitch not known at compile time (from cudaMallocPitch): a block of 32 x 4 still has
// one row per warp.
__global__ void brighten(unsigned char* img, size_t pitch, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    unsigned char* p = img + y * pitch + x;
    *p = (unsigned char)min(255, *p + 16);  // expect: global store sectors=1 ideal=1 eta=1.00 ; global load sectors=1 ideal=1 eta=1.00
  }
}

int main() {
  float *img, *dst, *out;
  unsigned char* bytes;
  size_t pitch = 0;
  cudaMallocPitch(&bytes, &pitch, 1024, HEIGHT);
  cudaMalloc(&img, 2112 * HEIGHT);
  cudaMalloc(&dst, 2112 * HEIGHT);
  cudaMalloc(&out, 512 * 512 * sizeof(float));
  scalePitched<<<dim3(16, HEIGHT / 8), dim3(32, 8)>>>(img, 2048, WIDTH, HEIGHT, 2.0f);
  copyPitched16<<<dim3(32, HEIGHT / 16), dim3(16, 16)>>>(img, 2112, dst, 2112, WIDTH, HEIGHT);
  columnRead<<<dim3(16, 64), dim3(32, 8)>>>(img, out, 528);
  brighten<<<dim3(32, HEIGHT / 4), dim3(32, 4)>>>(bytes, pitch, 1000, HEIGHT);
  cudaDeviceSynchronize();
  return 0;
}
