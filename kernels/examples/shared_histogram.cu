// shared_histogram.cu: a byte histogram with per-block bins in shared memory.
//  - The clear s_hist[tid] and the final read: stride 1, 1 wavefront.
//  - atomicAdd(&s_hist[v], 1) with v loaded from memory: a data-dependent shared atomic,
//    anywhere from 1 wavefront (all lanes on one bin, or on distinct banks) to 8: the 256
//    bins hold 8 words per bank, so no more than 8 different bins share one (the range was
//    1 to 32 before session 35; the H200 measured 3.17). No finding: the conflict depends on
//    the data.
//  - The merge atomicAdd(&hist[tid], ...) into global bins: contiguous, 4 sectors.
//  - data[i] as unsigned char: 32 bytes per warp, 1 sector.
// Seed 000 cause 4 (indirection), seed 001 (bank conflicts) on a shared histogram. The
// input bytes are a fixed pseudo-random sequence.
#include <vector>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                  \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

constexpr int BINS = 256;
constexpr int N = 256 * 256;

__global__ void histogramShared(const unsigned char* __restrict__ data, unsigned* __restrict__ hist, int n) {
  __shared__ unsigned s_hist[BINS];
  int tid = threadIdx.x;  // blockDim.x == BINS
  s_hist[tid] = 0;  // expect: shared store wavefronts=1 ideal=1 degree=1
  __syncthreads();
  int i = blockIdx.x * blockDim.x + tid;
  if (i < n) {
    unsigned char v = data[i];  // expect: global load sectors=1 ideal=1 eta=1.00
    atomicAdd(&s_hist[v], 1u);  // expect: shared atomic pattern=indirect wavefronts=1..8
  }
  __syncthreads();
  unsigned count = s_hist[tid];  // expect: shared load wavefronts=1 ideal=1 degree=1
  atomicAdd(&hist[tid], count);  // expect: global atomic sectors=4 ideal=4 eta=1.00
}

int main() {
  std::vector<unsigned char> bytes(N);
  unsigned state = 7u;
  for (int k = 0; k < N; ++k) {
    state = state * 1664525u + 1013904223u;
    bytes[k] = static_cast<unsigned char>(state >> 24);
  }

  unsigned char* data = nullptr;
  unsigned* hist = nullptr;
  CUDA_CHECK(cudaMalloc(&data, N * sizeof(unsigned char)));
  CUDA_CHECK(cudaMalloc(&hist, BINS * sizeof(unsigned)));
  CUDA_CHECK(cudaMemcpy(data, bytes.data(), N * sizeof(unsigned char), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(hist, 0, BINS * sizeof(unsigned)));

  histogramShared<<<256, 256>>>(data, hist, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(data));
  CUDA_CHECK(cudaFree(hist));
  std::printf("shared_histogram: ok\n");
  return 0;
}
