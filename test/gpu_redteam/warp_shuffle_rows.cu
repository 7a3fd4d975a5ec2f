// Warp-shuffle reductions: one warp per matrix row (row length 1000, lane-strided loop,
// __shfl_xor_sync butterfly, lane 0 stores), and a block of 96 threads with a guard i < n
// (n not a multiple of 32) doing shfl_down per warp, a per-warp global partial store and
// a shared warpSums[] pass read by warp 0.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int ROWS = 2048, COLS = 1000;
constexpr int N = 100000;   // not a multiple of 32
constexpr int TPB = 96;

__global__ void rowSumsWarp(const float* __restrict__ m, float* __restrict__ sums, int rows, int cols) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  if (row >= rows) return;
  const float* r = m + (size_t)row * cols;
  float acc = 0.0f;
  for (int c = lane; c < cols; c += 32) acc += r[c];
#pragma unroll
  for (int mask = 16; mask >= 1; mask /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, mask);
  if (lane == 0) sums[row] = acc;
}

__global__ void blockSum96(const float* __restrict__ in, float* __restrict__ warpPartials, float* __restrict__ total, int n) {
  __shared__ float warpSums[TPB / 32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int w = threadIdx.x >> 5;
  float v = 0.0f;
  if (i < n) v = in[i];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  if (lane == 0) {
    warpPartials[blockIdx.x * (TPB / 32) + w] = v;
    warpSums[w] = v;
  }
  __syncthreads();
  if (w == 0) {
    float s = (lane < TPB / 32) ? warpSums[lane] : 0.0f;
    for (int o = 2; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if (lane == 0) atomicAdd(total, s);
  }
}

int main() {
  float *m, *sums, *in, *parts, *total;
  const int blocks = (N + TPB - 1) / TPB;
  CK(cudaMalloc(&m, (size_t)ROWS * COLS * sizeof(float)));
  CK(cudaMalloc(&sums, ROWS * sizeof(float)));
  CK(cudaMalloc(&in, N * sizeof(float)));
  CK(cudaMalloc(&parts, blocks * (TPB / 32) * sizeof(float)));
  CK(cudaMalloc(&total, sizeof(float)));
  CK(cudaMemset(m, 0, (size_t)ROWS * COLS * sizeof(float)));
  CK(cudaMemset(in, 0, N * sizeof(float)));
  CK(cudaMemset(total, 0, sizeof(float)));

  rowSumsWarp<<<ROWS / 4, 128>>>(m, sums, ROWS, COLS);
  blockSum96<<<blocks, TPB>>>(in, parts, total, N);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(m)); CK(cudaFree(sums)); CK(cudaFree(in)); CK(cudaFree(parts)); CK(cudaFree(total));
  return 0;
}
