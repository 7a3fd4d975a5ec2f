// Warp-cooperative row loads of 128-float rows: lane + 32 * k unrolled (k = 0..3), one float4
// per lane, and the mistaken lane * 4 + k unrolled form; lane 0 writes the row result.
// Launches: 64 x 256 (8 warps/block), 128 x 128, 32 x 512 via host wrapper.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int ROW = 128;

__global__ void rowLaneK(const float* __restrict__ m, float* __restrict__ out) {
  int lane = threadIdx.x & 31;
  int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const float* r = m + row * ROW;
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < 4; ++k) s += r[lane + 32 * k];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0) out[row] = s;
}

__global__ void rowFloat4(const float* __restrict__ m, float* __restrict__ out) {
  int lane = threadIdx.x & 31;
  int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const float4* r4 = reinterpret_cast<const float4*>(m + row * ROW);
  float4 v = r4[lane];
  float s = v.x + v.y + v.z + v.w;
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  float4* o4 = reinterpret_cast<float4*>(out + row * ROW);
  o4[lane] = make_float4(v.x - s, v.y - s, v.z - s, v.w - s);
}

__global__ void rowLaneTimes4(const float* __restrict__ m, float* __restrict__ out) {
  int lane = threadIdx.x & 31;
  int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const float* r = m + row * ROW;
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < 4; ++k) s += r[lane * 4 + k];
  out[row * 32 + lane] = s;
}

void launchTimes4(const float* m, float* out, int rows, int threads) {
  int blocks = rows * 32 / threads;
  rowLaneTimes4<<<blocks, threads>>>(m, out);
}

int main() {
  const int rows = 4096;
  const int n = rows * ROW;  // 524288
  float *m, *out;
  CK(cudaMalloc(&m, n * sizeof(float)));
  CK(cudaMalloc(&out, n * sizeof(float)));
  CK(cudaMemset(m, 0, n * sizeof(float)));

  rowLaneK<<<64, 256>>>(m, out);     // 512 rows
  rowFloat4<<<128, 128>>>(m, out);   // 512 rows
  launchTimes4(m, out, 512, 512);    // 32 blocks of 512
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(m)); CK(cudaFree(out));
  return 0;
}
