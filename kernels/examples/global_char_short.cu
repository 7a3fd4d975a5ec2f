// global_char_short.cu: 1- and 2-byte global accesses. A warp reading 32 contiguous chars
// moves 32 bytes, 1 sector; 32 shorts are 64 bytes, 2 sectors: fully efficient, just small
// requests (ideal = ceil(distinct bytes / 32)).
//  - widenBytes: unsigned char in, short out.
//  - narrowShorts: short in, unsigned char out (saturated).
// Seed 000 §2.1: sectors = distinct bytes of the warp / 32 for contiguous data.
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

constexpr int N = 64 * 256;

__global__ void widenBytes(const unsigned char* __restrict__ in, short* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned char v = in[i];  // expect: global load sectors=1 ideal=1 eta=1.00
    out[i] = static_cast<short>(3 * v - 128);  // expect: global store sectors=2 ideal=2 eta=1.00
  }
}

__global__ void narrowShorts(const short* __restrict__ in, unsigned char* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    short v = in[i];  // expect: global load sectors=2 ideal=2 eta=1.00
    out[i] = static_cast<unsigned char>(min(max(static_cast<int>(v), 0), 255));  // expect: global store sectors=1 ideal=1 eta=1.00
  }
}

int main() {
  unsigned char *bytes = nullptr, *bytesOut = nullptr;
  short* shorts = nullptr;
  CUDA_CHECK(cudaMalloc(&bytes, N * sizeof(unsigned char)));
  CUDA_CHECK(cudaMalloc(&shorts, N * sizeof(short)));
  CUDA_CHECK(cudaMalloc(&bytesOut, N * sizeof(unsigned char)));
  CUDA_CHECK(cudaMemset(bytes, 0, N * sizeof(unsigned char)));

  widenBytes<<<64, 256>>>(bytes, shorts, N);
  CUDA_CHECK(cudaGetLastError());
  narrowShorts<<<64, 256>>>(shorts, bytesOut, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(bytes));
  CUDA_CHECK(cudaFree(shorts));
  CUDA_CHECK(cudaFree(bytesOut));
  std::printf("global_char_short: ok\n");
  return 0;
}
