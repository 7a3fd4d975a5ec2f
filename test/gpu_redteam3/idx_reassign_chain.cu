// Indices built over several statements: idx = base; idx += lane * 3; idx ^= 1, compound
// *=, <<=, |=, and an index post/pre-incremented inside a loop body (in[j++], in[++j]).
// Launches: 64 x 128, 128 x 256 (dim3 locals), 32 x 256, 256 x 64.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void reassignXor(const float* __restrict__ in, float* __restrict__ out) {
  int lane = threadIdx.x & 31;
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int idx = warp * 96;
  idx += lane * 3;
  idx ^= 1;
  float v = in[idx];
  int o = warp;
  o *= 32;
  o += lane;
  o ^= 1;
  out[o] = v;
}

__global__ void postIncLoop(const float* __restrict__ in, float* __restrict__ out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int j = t * 4;
  float s = 0.0f;
  for (int k = 0; k < 4; ++k) {
    s += in[j++];
  }
  out[t] = s;
}

__global__ void preIncStride(const float* __restrict__ in, float* __restrict__ out, int total) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int j = t - total;
  float s = 0.0f;
  for (int k = 0; k < 4; ++k) {
    j += total;
    s += in[j];
  }
  int w = t;
  out[w++] = s;          // post-increment after use: plain coalesced store
  int d = 2 * t - 1;
  out[total + (++d)] = s; // pre-increment: stride 2 store
}

__global__ void shiftOr(const float* __restrict__ in, float* __restrict__ out) {
  int idx = threadIdx.x;
  idx <<= 1;
  idx |= 1;
  idx += blockIdx.x * 128;
  float v = in[idx];
  int o = blockIdx.x;
  o <<= 6;
  o |= threadIdx.x;
  out[o] = v;
}

int main() {
  const int n = 1 << 20;
  float *in, *out;
  CK(cudaMalloc(&in, n * sizeof(float)));
  CK(cudaMalloc(&out, 2 * n * sizeof(float)));
  CK(cudaMemset(in, 0, n * sizeof(float)));
  CK(cudaMemset(out, 0, 2 * n * sizeof(float)));

  reassignXor<<<64, 128>>>(in, out);       // 256 warps * 96 floats = 24576 < n
  dim3 grid(128), block(256);
  postIncLoop<<<grid, block>>>(in, out);   // 32768 threads * 4 = n / 8
  int total = 32 * 256;
  preIncStride<<<32, 256>>>(in, out, total);  // 4 * total < n; stores < total + 2*total
  shiftOr<<<256, 64>>>(in, out);           // idx < 256 * 128
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(in)); CK(cudaFree(out));
  return 0;
}
