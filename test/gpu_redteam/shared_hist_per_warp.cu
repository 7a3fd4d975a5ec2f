// Shared-memory histograms: per-warp sub-histograms h[warp][bin] updated with shared
// atomicAdd then merged column-wise into global atomics (block 256), and per-thread counters
// laid out cnt[bin][tid] incremented without atomics (block 128), merged by a row sum.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int N = 1 << 18;
constexpr int BINS = 64;
constexpr int WARPS = 8;      // 256 threads
constexpr int TPB2 = 128;
constexpr int BINS2 = 16;

__global__ void histPerWarp(const unsigned char* __restrict__ data, unsigned* __restrict__ hist, int n) {
  __shared__ unsigned h[WARPS][BINS];
  int warp = threadIdx.x / 32;
  for (int k = threadIdx.x; k < WARPS * BINS; k += blockDim.x) (&h[0][0])[k] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    unsigned char b = data[i];
    atomicAdd(&h[warp][b % BINS], 1u);
  }
  __syncthreads();
  if (threadIdx.x < BINS) {
    unsigned sum = 0;
    for (int w = 0; w < WARPS; ++w) sum += h[w][threadIdx.x];
    atomicAdd(&hist[threadIdx.x], sum);
  }
}

__global__ void histPerThread(const unsigned char* __restrict__ data, unsigned* __restrict__ hist, int n) {
  __shared__ unsigned short cnt[BINS2][TPB2];
  int tid = threadIdx.x;
#pragma unroll
  for (int b = 0; b < BINS2; ++b) cnt[b][tid] = 0;
  __syncthreads();
  for (int i = blockIdx.x * TPB2 + tid; i < n; i += gridDim.x * TPB2) {
    int b = data[i] & (BINS2 - 1);
    cnt[b][tid] += 1;
  }
  __syncthreads();
  if (tid < BINS2) {
    unsigned sum = 0;
    for (int t = 0; t < TPB2; ++t) sum += cnt[tid][t];
    atomicAdd(&hist[tid], sum);
  }
}

int main() {
  std::vector<unsigned char> h(N);
  for (int i = 0; i < N; ++i) h[i] = (unsigned char)((i * 37) % 251);
  unsigned char* data;
  unsigned* hist;
  CK(cudaMalloc(&data, N));
  CK(cudaMalloc(&hist, BINS * sizeof(unsigned)));
  CK(cudaMemcpy(data, h.data(), N, cudaMemcpyHostToDevice));
  CK(cudaMemset(hist, 0, BINS * sizeof(unsigned)));

  histPerWarp<<<64, WARPS * 32>>>(data, hist, N);
  histPerThread<<<64, TPB2>>>(data, hist, N);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(data));
  CK(cudaFree(hist));
  return 0;
}
