// Early exits that retire whole warps or parts of warps: if (warp_id >= active_warps) return;
// (5 of 8 warps), if (lane >= 16) return; and if (lane < 16) return; (half warps), odd warps
// exit, lane 0 only, a global warp bound with a surplus grid, and 8 lanes reading at stride 4.
// Launches: 1D, 512 x 256 except warpBound 600 x 128 and activeWarps 512 x 256 with 5 warps live.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void activeWarpsOnly(const float* __restrict__ in, float* __restrict__ out, int active_warps) {
  int warp_id = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp_id >= active_warps) return;
  int i = (blockIdx.x * active_warps + warp_id) * 32 + lane;
  float v = in[i];
  out[i] = v + 1.0f;
}

__global__ void lowerHalfWarp(const float* __restrict__ in, float* __restrict__ out) {
  int lane = threadIdx.x & 31;
  if (lane >= 16) return;
  int gw = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  float v = in[gw * 32 + lane];
  out[gw * 16 + lane] = v;
}

__global__ void upperHalfWarp(const float* __restrict__ in, float* __restrict__ out) {
  int lane = threadIdx.x & 31;
  if (lane < 16) return;
  int gw = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  float v = in[gw * 32 + lane];
  out[gw * 16 + lane - 16] = v;
}

__global__ void evenWarpsOnly(const float* __restrict__ in, float* __restrict__ out) {
  int warp_id = threadIdx.x >> 5;
  if (warp_id & 1) return;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  out[i] = v;
}

__global__ void laneZeroOnly(const float* __restrict__ in, float* __restrict__ out) {
  int lane = threadIdx.x % 32;
  if (lane != 0) return;
  int gw = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  float v = in[gw * 32];
  out[gw] = v;
}

__global__ void warpBound(const float* __restrict__ in, float* __restrict__ out, int numWarps) {
  int gtid = blockIdx.x * blockDim.x + threadIdx.x;
  int gw = gtid >> 5, lane = gtid & 31;
  if (gw >= numWarps) return;
  float v = in[gw * 32 + lane];
  out[gw * 32 + lane] = v;
}

__global__ void quarterStride4(const float* __restrict__ in, float* __restrict__ out) {
  int lane = threadIdx.x & 31;
  if (lane >= 8) return;
  int gw = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  float v = in[gw * 32 + lane * 4];
  out[gw * 8 + lane] = v;
}

int main() {
  const int blocks = 512, tpb = 256;
  const int n = blocks * tpb;            // 131072 floats
  const int numWarps = 2000;             // warpBound: 600 x 128 threads = 2400 warps launched
  float *in, *out;
  CK(cudaMalloc(&in, n * sizeof(float)));
  CK(cudaMalloc(&out, n * sizeof(float)));
  CK(cudaMemset(in, 0, n * sizeof(float)));

  activeWarpsOnly<<<blocks, tpb>>>(in, out, 5);
  lowerHalfWarp<<<blocks, tpb>>>(in, out);
  upperHalfWarp<<<blocks, tpb>>>(in, out);
  evenWarpsOnly<<<blocks, tpb>>>(in, out);
  laneZeroOnly<<<blocks, tpb>>>(in, out);
  warpBound<<<600, 128>>>(in, out, numWarps);
  quarterStride4<<<blocks, tpb>>>(in, out);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(in)); CK(cudaFree(out));
  return 0;
}
