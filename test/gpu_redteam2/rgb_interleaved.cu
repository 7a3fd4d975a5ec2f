// Interleaved RGB images: gray from uchar3 loads, gray from 3 separate byte loads at 3*i, 3*i+1,
// 3*i+2, interleaved -> planar split (byte stores to 3 planes) and planar -> interleaved
// (byte stores at stride 3), RGBA uchar4 with a row pitch read through a char* row pointer.
// Launches: 1D 4096 x 256 (1M pixels); pitched 1000 x 512 image with dim3(32,8), grid (32,64).
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void grayUchar3(const uchar3* __restrict__ rgb, unsigned char* __restrict__ gray) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  uchar3 p = rgb[i];
  gray[i] = (unsigned char)(0.299f * p.x + 0.587f * p.y + 0.114f * p.z);
}

__global__ void grayBytes(const unsigned char* __restrict__ rgb, unsigned char* __restrict__ gray) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned char r = rgb[3 * i];
  unsigned char g = rgb[3 * i + 1];
  unsigned char b = rgb[3 * i + 2];
  gray[i] = (unsigned char)((77 * r + 150 * g + 29 * b) >> 8);
}

__global__ void splitPlanes(const unsigned char* __restrict__ rgb, unsigned char* __restrict__ rp,
                            unsigned char* __restrict__ gp, unsigned char* __restrict__ bp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned char* px = rgb + 3 * i;
  rp[i] = px[0];
  gp[i] = px[1];
  bp[i] = px[2];
}

__global__ void mergePlanes(const unsigned char* __restrict__ rp, const unsigned char* __restrict__ gp,
                            const unsigned char* __restrict__ bp, unsigned char* __restrict__ rgb) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned char r = rp[i];
  unsigned char g = gp[i];
  unsigned char b = bp[i];
  rgb[3 * i] = r;
  rgb[3 * i + 1] = g;
  rgb[3 * i + 2] = b;
}

__global__ void rgbaPitched(const uchar4* __restrict__ img, size_t pitch, unsigned char* __restrict__ gray,
                            size_t gpitch, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const uchar4* row = (const uchar4*)((const char*)img + y * pitch);
  uchar4 p = row[x];
  unsigned char* grow = gray + y * gpitch;
  grow[x] = (unsigned char)((p.x + p.y + p.z) / 3 * (p.w > 0));
}

int main() {
  const int n = 1 << 20;
  const int tpb = 256;
  const int width = 1000, height = 512;
  const size_t pitch = 4096;   // 1000 * 4 bytes rounded up to 512
  const size_t gpitch = 1024;  // 1000 bytes rounded up to 512
  unsigned char *rgb, *gray, *rp, *gp, *bp, *rgb2, *gray2;
  uchar4* img;
  CK(cudaMalloc(&rgb, 3 * n));
  CK(cudaMalloc(&rgb2, 3 * n));
  CK(cudaMalloc(&gray, n));
  CK(cudaMalloc(&rp, n));
  CK(cudaMalloc(&gp, n));
  CK(cudaMalloc(&bp, n));
  CK(cudaMalloc(&img, pitch * height));
  CK(cudaMalloc(&gray2, gpitch * height));
  CK(cudaMemset(rgb, 7, 3 * n));
  CK(cudaMemset(img, 9, pitch * height));

  grayUchar3<<<n / tpb, tpb>>>((const uchar3*)rgb, gray);
  grayBytes<<<n / tpb, tpb>>>(rgb, gray);
  splitPlanes<<<n / tpb, tpb>>>(rgb, rp, gp, bp);
  mergePlanes<<<n / tpb, tpb>>>(rp, gp, bp, rgb2);
  dim3 block(32, 8);
  dim3 grid((width + block.x - 1) / block.x, height / block.y);
  rgbaPitched<<<grid, block>>>(img, pitch, gray2, gpitch, width, height);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(rgb)); CK(cudaFree(rgb2)); CK(cudaFree(gray)); CK(cudaFree(rp));
  CK(cudaFree(gp)); CK(cudaFree(bp)); CK(cudaFree(img)); CK(cudaFree(gray2));
  return 0;
}
