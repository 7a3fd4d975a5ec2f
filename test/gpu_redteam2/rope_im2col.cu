// Rotary embedding on [tokens][128] rows, pair per thread: interleaved pairs (row[2*i], row[2*i+1],
// read and written back) and rotate-half pairs (row[i], row[i + 64]), cos/sin tables [tokens][64];
// Caffe-style im2col (3x3, pad 1, C=16, 56x56) with pointer bumps col += H*W and masked loads.
// Launches: dim3(512) x dim3(64,4) twice; im2col 196 x 256.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int HEAD = 128;
constexpr int HALF = HEAD / 2;

__global__ void ropeInterleaved(float* x, const float* __restrict__ cosT, const float* __restrict__ sinT) {
  int i = threadIdx.x;
  int t = blockIdx.x * blockDim.y + threadIdx.y;
  float* row = x + (size_t)t * HEAD;
  float x0 = row[2 * i];
  float x1 = row[2 * i + 1];
  float c = cosT[t * HALF + i];
  float s = sinT[t * HALF + i];
  row[2 * i] = x0 * c - x1 * s;
  row[2 * i + 1] = x0 * s + x1 * c;
}

__global__ void ropeRotateHalf(float* x, const float* __restrict__ cosT, const float* __restrict__ sinT) {
  int i = threadIdx.x;
  int t = blockIdx.x * blockDim.y + threadIdx.y;
  float* row = x + (size_t)t * HEAD;
  float x0 = row[i];
  float x1 = row[i + HALF];
  float c = cosT[t * HALF + i];
  float s = sinT[t * HALF + i];
  row[i] = x0 * c - x1 * s;
  row[i + HALF] = x1 * c + x0 * s;
}

__global__ void im2col3x3(const float* __restrict__ data_im, int C, int H, int W, float* __restrict__ data_col) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= C * H * W) return;
  int w_out = index % W;
  int h_index = index / W;
  int h_out = h_index % H;
  int c_in = h_index / H;
  int h_in = h_out - 1, w_in = w_out - 1;
  float* col = data_col + ((size_t)c_in * 9 * H + h_out) * W + w_out;
  const float* im = data_im + ((size_t)c_in * H + h_in) * W + w_in;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      int h = h_in + i, w = w_in + j;
      float v = 0.0f;
      if (h >= 0 && w >= 0 && h < H && w < W) v = im[i * W + j];
      *col = v;
      col += H * W;
    }
  }
}

int main() {
  const int tokens = 2048;
  const int C = 16, H = 56, W = 56;
  float *x, *cosT, *sinT, *im, *col;
  CK(cudaMalloc(&x, tokens * HEAD * sizeof(float)));
  CK(cudaMalloc(&cosT, tokens * HALF * sizeof(float)));
  CK(cudaMalloc(&sinT, tokens * HALF * sizeof(float)));
  CK(cudaMalloc(&im, C * H * W * sizeof(float)));
  CK(cudaMalloc(&col, C * 9 * H * W * sizeof(float)));
  CK(cudaMemset(x, 0, tokens * HEAD * sizeof(float)));
  CK(cudaMemset(cosT, 0, tokens * HALF * sizeof(float)));
  CK(cudaMemset(sinT, 0, tokens * HALF * sizeof(float)));
  CK(cudaMemset(im, 0, C * H * W * sizeof(float)));

  dim3 rb(HALF, 4);
  dim3 rg(tokens / 4);
  ropeInterleaved<<<rg, rb>>>(x, cosT, sinT);
  ropeRotateHalf<<<rg, rb>>>(x, cosT, sinT);
  const int total = C * H * W;   // 50176 = 196 * 256
  im2col3x3<<<(total + 255) / 256, 256>>>(im, C, H, W, col);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(x)); CK(cudaFree(cosT)); CK(cudaFree(sinT)); CK(cudaFree(im)); CK(cudaFree(col));
  return 0;
}
