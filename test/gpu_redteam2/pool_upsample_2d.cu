// Pooling / resampling on NCHW planes with blockIdx.z as the plane (N*C = 64): 2x2 max pool
// (four loads at stride 2 floats, one per line), nearest 2x upsample in[(oy/2)*W + ox/2], and
// bilinear 2x upsample (align_corners=false) with float-computed, clamped neighbour indices.
// Input 128x128 (pool) / 64x64 (upsample). Launches: (2,8,64)x(32,8), (4,16,64)x(32,8) twice.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void maxPool2x2(const float* __restrict__ in, float* __restrict__ out, int H, int W) {
  int ox = blockIdx.x * blockDim.x + threadIdx.x;
  int oy = blockIdx.y * blockDim.y + threadIdx.y;
  int OH = H / 2, OW = W / 2;
  const float* src = in + (size_t)blockIdx.z * H * W;
  float a = src[(2 * oy) * W + 2 * ox];
  float b = src[(2 * oy) * W + 2 * ox + 1];
  float c = src[(2 * oy + 1) * W + 2 * ox];
  float d = src[(2 * oy + 1) * W + 2 * ox + 1];
  out[(size_t)blockIdx.z * OH * OW + oy * OW + ox] = fmaxf(fmaxf(a, b), fmaxf(c, d));
}

__global__ void upsampleNearest2x(const float* __restrict__ in, float* __restrict__ out, int H, int W) {
  int ox = blockIdx.x * blockDim.x + threadIdx.x;
  int oy = blockIdx.y * blockDim.y + threadIdx.y;
  int OW = 2 * W;
  size_t plane = blockIdx.z;
  float v = in[plane * H * W + (oy / 2) * W + ox / 2];
  out[plane * 4 * H * W + oy * OW + ox] = v;
}

__global__ void upsampleBilinear2x(const float* __restrict__ in, float* __restrict__ out, int H, int W) {
  int ox = blockIdx.x * blockDim.x + threadIdx.x;
  int oy = blockIdx.y * blockDim.y + threadIdx.y;
  const float* src = in + (size_t)blockIdx.z * H * W;
  float sy = fmaxf((oy + 0.5f) * 0.5f - 0.5f, 0.0f);
  float sx = fmaxf((ox + 0.5f) * 0.5f - 0.5f, 0.0f);
  int y0 = (int)sy, x0 = (int)sx;
  int y1 = min(y0 + 1, H - 1), x1 = min(x0 + 1, W - 1);
  float ly = sy - y0, lx = sx - x0;
  float v00 = src[y0 * W + x0];
  float v01 = src[y0 * W + x1];
  float v10 = src[y1 * W + x0];
  float v11 = src[y1 * W + x1];
  float top = v00 + (v01 - v00) * lx;
  float bot = v10 + (v11 - v10) * lx;
  out[(size_t)blockIdx.z * 4 * H * W + oy * (2 * W) + ox] = top + (bot - top) * ly;
}

int main() {
  const int planes = 64;
  const int PH = 128, PW = 128;   // pool input
  const int UH = 64, UW = 64;     // upsample input
  float *pin, *pout, *uin, *uout;
  CK(cudaMalloc(&pin, (size_t)planes * PH * PW * sizeof(float)));
  CK(cudaMalloc(&pout, (size_t)planes * (PH / 2) * (PW / 2) * sizeof(float)));
  CK(cudaMalloc(&uin, (size_t)planes * UH * UW * sizeof(float)));
  CK(cudaMalloc(&uout, (size_t)planes * 4 * UH * UW * sizeof(float)));
  CK(cudaMemset(pin, 0, (size_t)planes * PH * PW * sizeof(float)));
  CK(cudaMemset(uin, 0, (size_t)planes * UH * UW * sizeof(float)));

  dim3 block(32, 8);
  maxPool2x2<<<dim3(PW / 2 / 32, PH / 2 / 8, planes), block>>>(pin, pout, PH, PW);
  dim3 gridUp(2 * UW / 32, 2 * UH / 8, planes);
  upsampleNearest2x<<<gridUp, block>>>(uin, uout, UH, UW);
  upsampleBilinear2x<<<gridUp, block>>>(uin, uout, UH, UW);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(pin)); CK(cudaFree(pout)); CK(cudaFree(uin)); CK(cudaFree(uout));
  return 0;
}
