// cudaMallocPitch images indexed through (char*)base + y * pitch: float rows with width 1000
// (not a multiple of 32, block 32x8), a column walk where threadIdx.x selects the ROW,
// unsigned short image width 500 with block 16x16, and double copy between two pitches.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int W = 1000, H = 256;
constexpr int WS = 500, HS = 128;

__global__ void offsetRows(float* img, size_t pitch, int width, int height, float add) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    float* row = (float*)((char*)img + y * pitch);
    row[x] += add;
  }
}

// threadIdx.x walks down a column: consecutive lanes are one pitch apart.
__global__ void columnCopy(const float* img, size_t pitch, float* out, int width, int height) {
  int y = blockIdx.x * blockDim.x + threadIdx.x;
  int x = blockIdx.y;
  if (y < height && x < width) {
    const float* row = (const float*)((const char*)img + (size_t)y * pitch);
    float v = row[x];
    out[x * height + y] = v;
  }
}

__global__ void thresholdU16(unsigned short* img, size_t pitch, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  unsigned short* row = (unsigned short*)((char*)img + y * pitch);
  unsigned short v = row[x];
  row[x] = v > 1000 ? 1000 : v;
}

__global__ void copyDoublePitched(const double* src, size_t sp, double* dst, size_t dp, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    double v = *((const double*)((const char*)src + y * sp) + x);
    *((double*)((char*)dst + y * dp) + x) = v;
  }
}

int main() {
  float* img; size_t pitch;
  unsigned short* u16; size_t pitchU;
  double *d0, *d1; size_t p0, p1;
  float* out;
  CK(cudaMallocPitch((void**)&img, &pitch, W * sizeof(float), H));
  CK(cudaMallocPitch((void**)&u16, &pitchU, WS * sizeof(unsigned short), HS));
  CK(cudaMallocPitch((void**)&d0, &p0, 300 * sizeof(double), 100));
  CK(cudaMallocPitch((void**)&d1, &p1, 330 * sizeof(double), 100));
  CK(cudaMalloc(&out, (size_t)W * H * sizeof(float)));
  CK(cudaMemset2D(img, pitch, 0, W * sizeof(float), H));
  CK(cudaMemset2D(u16, pitchU, 0, WS * sizeof(unsigned short), HS));
  CK(cudaMemset2D(d0, p0, 0, 300 * sizeof(double), 100));

  dim3 b32x8(32, 8);
  offsetRows<<<dim3((W + 31) / 32, H / 8), b32x8>>>(img, pitch, W, H, 1.0f);
  columnCopy<<<dim3(H / 128, W), 128>>>(img, pitch, out, W, H);
  dim3 b16(16, 16);
  thresholdU16<<<dim3((WS + 15) / 16, HS / 16), b16>>>(u16, pitchU, WS, HS);
  copyDoublePitched<<<dim3((300 + 31) / 32, (100 + 7) / 8), b32x8>>>(d0, p0, d1, p1, 300, 100);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(img)); CK(cudaFree(u16)); CK(cudaFree(d0)); CK(cudaFree(d1)); CK(cudaFree(out));
  return 0;
}
