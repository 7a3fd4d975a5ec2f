// Chains of __device__ helpers computing the index, with default arguments: loadVia -> loadAt
// -> flatIdx(scale, offset); a warp-base helper; a helper returning a pointer; the line inside
// loadAt is reached twice in one kernel (scale 1, and scale 2 offset 1). Launches: 128 x 128, 64 x 256, 32 x 512.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__device__ __forceinline__ int laneId() { return threadIdx.x & 31; }
__device__ __forceinline__ int globalWarp() { return (blockIdx.x * blockDim.x + threadIdx.x) >> 5; }

__device__ int flatIdx(int scale = 1, int offset = 0) {
  return (blockIdx.x * blockDim.x + threadIdx.x) * scale + offset;
}

__device__ float loadAt(const float* p, int scale = 1, int offset = 0) {
  return p[flatIdx(scale, offset)];
}

__device__ float loadVia(const float* p, int scale = 2) { return loadAt(p, scale, 1); }

__device__ int warpTile(int width = 64, int col = 0) { return globalWarp() * width + col + laneId(); }

__device__ float* rowPtr(float* base, int row, int ld = 512) { return base + row * ld; }

__global__ void helperDefaults(const float* __restrict__ in, float* __restrict__ out) {
  float a = loadAt(in);
  float b = loadVia(in + 65536);
  out[flatIdx()] = a + b;
}

__global__ void helperWarpTile(const float* __restrict__ in, float* __restrict__ out) {
  float a = in[warpTile()];
  float b = in[warpTile(64, 32)];
  out[warpTile(32)] = a + b;
}

__global__ void helperRowPtr(float* __restrict__ m) {
  float* r = rowPtr(m, threadIdx.x);
  r[blockIdx.x] += 1.0f;
}

int main() {
  const int n = 1 << 20;
  float *in, *out;
  CK(cudaMalloc(&in, n * sizeof(float)));
  CK(cudaMalloc(&out, n * sizeof(float)));
  CK(cudaMemset(in, 0, n * sizeof(float)));
  CK(cudaMemset(out, 0, n * sizeof(float)));

  helperDefaults<<<128, 128>>>(in, out);  // 65536 + 2 * 16383 + 1 < n
  helperWarpTile<<<64, 256>>>(in, out);   // 512 warps * 64 < n
  helperRowPtr<<<32, 512>>>(out);         // 511 * 512 + 31 < n
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(in)); CK(cudaFree(out));
  return 0;
}
