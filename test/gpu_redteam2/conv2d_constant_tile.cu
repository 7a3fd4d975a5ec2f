// 2D convolution, 5x5 filter in __constant__ memory: naive global-memory version (clamped
// neighbours, block 32x8), shared tile 20x20 with halo loaded by a 2D strided loop (block 16x16),
// and a separable row pass, tile [8][36], apron loaded by the first 2 lanes (block 32x8).
// Image 1024 x 512 floats. Launches: (32,64)x(32,8), (64,32)x(16,16), (32,64)x(32,8).
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

#define R 2
#define FW (2 * R + 1)
#define TILE 16
__constant__ float c_filter[FW * FW];
__constant__ float c_row[FW];

__global__ void convGlobal(const float* __restrict__ in, float* __restrict__ out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0.0f;
  for (int fy = 0; fy < FW; ++fy) {
    int yy = min(max(y + fy - R, 0), h - 1);
    for (int fx = 0; fx < FW; ++fx) {
      int xx = min(max(x + fx - R, 0), w - 1);
      s += c_filter[fy * FW + fx] * in[yy * w + xx];
    }
  }
  out[y * w + x] = s;
}

__global__ void convShared(const float* __restrict__ in, float* __restrict__ out, int w, int h) {
  __shared__ float tile[TILE + 2 * R][TILE + 2 * R];
  int tx = threadIdx.x, ty = threadIdx.y;
  for (int dy = ty; dy < TILE + 2 * R; dy += TILE) {
    for (int dx = tx; dx < TILE + 2 * R; dx += TILE) {
      int gx = min(max((int)(blockIdx.x * TILE) + dx - R, 0), w - 1);
      int gy = min(max((int)(blockIdx.y * TILE) + dy - R, 0), h - 1);
      tile[dy][dx] = in[gy * w + gx];
    }
  }
  __syncthreads();
  float s = 0.0f;
#pragma unroll
  for (int fy = 0; fy < FW; ++fy)
#pragma unroll
    for (int fx = 0; fx < FW; ++fx)
      s += c_filter[fy * FW + fx] * tile[ty + fy][tx + fx];
  int x = blockIdx.x * TILE + tx;
  int y = blockIdx.y * TILE + ty;
  out[y * w + x] = s;
}

__global__ void convRows(const float* __restrict__ in, float* __restrict__ out, int w) {
  __shared__ float s[8][32 + 2 * R];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * 32 + tx;
  int y = blockIdx.y * 8 + ty;
  s[ty][tx + R] = in[y * w + x];
  if (tx < R) {
    s[ty][tx] = in[y * w + max(x - R, 0)];
    s[ty][tx + 32 + R] = in[y * w + min(x + 32, w - 1)];
  }
  __syncthreads();
  float acc = 0.0f;
#pragma unroll
  for (int k = 0; k < FW; ++k) acc += c_row[k] * s[ty][tx + k];
  out[y * w + x] = acc;
}

int main() {
  const int w = 1024, h = 512;
  float hf[FW * FW], hr[FW];
  for (int i = 0; i < FW * FW; ++i) hf[i] = 1.0f / (FW * FW);
  for (int i = 0; i < FW; ++i) hr[i] = 1.0f / FW;
  CK(cudaMemcpyToSymbol(c_filter, hf, sizeof(hf)));
  CK(cudaMemcpyToSymbol(c_row, hr, sizeof(hr)));
  float *in, *out;
  CK(cudaMalloc(&in, w * h * sizeof(float)));
  CK(cudaMalloc(&out, w * h * sizeof(float)));
  CK(cudaMemset(in, 0, w * h * sizeof(float)));

  dim3 b32x8(32, 8);
  dim3 g32x8(w / 32, h / 8);
  convGlobal<<<g32x8, b32x8>>>(in, out, w, h);
  convShared<<<dim3(w / TILE, h / TILE), dim3(TILE, TILE)>>>(in, out, w, h);
  convRows<<<g32x8, b32x8>>>(in, out, w);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(in)); CK(cudaFree(out));
  return 0;
}
