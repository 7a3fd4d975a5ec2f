// Bitonic sort of 1024 keys per block in shared memory, two common formulations:
// (a) 1024 threads, partner = tid ^ j, the lower thread of each pair compares and swaps;
// (b) CUDA-samples style, 512 threads each own one pair pos = 2*tid - (tid & (stride-1)), key+value.
// Keys come from a host formula so the swaps really happen. Launches: 64 x 1024 and 64 x 512.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

constexpr int SORT_N = 1024;

__global__ void bitonicXor(float* data) {
  __shared__ float s[SORT_N];
  unsigned tid = threadIdx.x;
  s[tid] = data[blockIdx.x * SORT_N + tid];
  __syncthreads();
  for (unsigned k = 2; k <= SORT_N; k <<= 1) {
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      unsigned ixj = tid ^ j;
      if (ixj > tid) {
        float a = s[tid];
        float b = s[ixj];
        bool up = (tid & k) == 0;
        if ((a > b) == up) {
          s[tid] = b;
          s[ixj] = a;
        }
      }
      __syncthreads();
    }
  }
  data[blockIdx.x * SORT_N + tid] = s[tid];
}

__global__ void bitonicPairs(unsigned* keys, unsigned* vals) {
  __shared__ unsigned sk[SORT_N];
  __shared__ unsigned sv[SORT_N];
  unsigned* kb = keys + blockIdx.x * SORT_N;
  unsigned* vb = vals + blockIdx.x * SORT_N;
  sk[threadIdx.x] = kb[threadIdx.x];
  sv[threadIdx.x] = vb[threadIdx.x];
  sk[threadIdx.x + SORT_N / 2] = kb[threadIdx.x + SORT_N / 2];
  sv[threadIdx.x + SORT_N / 2] = vb[threadIdx.x + SORT_N / 2];
  for (unsigned size = 2; size <= SORT_N; size <<= 1) {
    bool dir = (threadIdx.x & (size / 2)) != 0;
    if (size == SORT_N) dir = false;
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      unsigned ka = sk[pos];
      unsigned kc = sk[pos + stride];
      if ((ka > kc) != dir) {
        unsigned va = sv[pos];
        unsigned vc = sv[pos + stride];
        sk[pos] = kc;
        sk[pos + stride] = ka;
        sv[pos] = vc;
        sv[pos + stride] = va;
      }
    }
  }
  __syncthreads();
  kb[threadIdx.x] = sk[threadIdx.x];
  vb[threadIdx.x] = sv[threadIdx.x];
  kb[threadIdx.x + SORT_N / 2] = sk[threadIdx.x + SORT_N / 2];
  vb[threadIdx.x + SORT_N / 2] = sv[threadIdx.x + SORT_N / 2];
}

int main() {
  const int blocks = 64;
  const int n = blocks * SORT_N;
  std::vector<float> hf(n);
  std::vector<unsigned> hk(n), hv(n);
  for (int i = 0; i < n; ++i) {
    hk[i] = (i * 2654435761u) % 10007u;
    hf[i] = (float)hk[i];
    hv[i] = (unsigned)i;
  }
  float* data;
  unsigned *keys, *vals;
  CK(cudaMalloc(&data, n * sizeof(float)));
  CK(cudaMalloc(&keys, n * sizeof(unsigned)));
  CK(cudaMalloc(&vals, n * sizeof(unsigned)));
  CK(cudaMemcpy(data, hf.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(keys, hk.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(vals, hv.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));

  bitonicXor<<<blocks, SORT_N>>>(data);
  bitonicPairs<<<blocks, SORT_N / 2>>>(keys, vals);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(data)); CK(cudaFree(keys)); CK(cudaFree(vals));
  return 0;
}
