// shared_char_short.cu: 1- and 2-byte shared accesses. Lanes reading bytes of the same
// 4-byte word share it (no conflict): 32 contiguous chars are 8 words, 32 shorts 16 words,
// 1 wavefront each. A stride that spreads narrow elements over words of the same bank
// still conflicts: each thread keeps an 8-byte record and reads the first byte of its own,
// rec[8 * t]: words 2t, two different words per bank, 2 wavefronts.
// Seed 000 §2.3 (banc(a) = floor(a / 4) mod 32, row s[2t]) for narrow types; seed 001
// "broadcast is not a conflict" (same word).
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

constexpr int BLOCK = 256;
constexpr int N = 64 * BLOCK;
constexpr int RECORD = 8;  // bytes per thread record

__global__ void byteStages(const unsigned char* __restrict__ in, short* __restrict__ out, int n) {
  __shared__ unsigned char flags[BLOCK];
  __shared__ short counts[BLOCK];
  __shared__ unsigned char rec[BLOCK * RECORD];
  int tid = threadIdx.x;
  int i = blockIdx.x * BLOCK + tid;
  unsigned char b = (i < n) ? in[i] : 0;  // expect: global load sectors=1 ideal=1 eta=1.00
  flags[tid] = b;  // expect: shared store wavefronts=1 ideal=1 degree=1
  rec[tid * RECORD] = b;  // expect: shared store wavefronts=2 ideal=1 degree=2 !shared-bank-conflict
  __syncthreads();
  unsigned char left = flags[(tid + BLOCK - 1) % BLOCK];  // expect: shared load wavefronts=1 ideal=1 degree=1
  counts[tid] = static_cast<short>(left + b);  // expect: shared store wavefronts=1 ideal=1 degree=1
  __syncthreads();
  short c = counts[BLOCK - 1 - tid];  // expect: shared load wavefronts=1 ideal=1 degree=1
  unsigned char first = rec[tid * RECORD];  // expect: shared load wavefronts=2 ideal=1 degree=2 !shared-bank-conflict
  if (i < n) out[i] = static_cast<short>(c + first);  // expect: global store sectors=2 ideal=2 eta=1.00
}

int main() {
  unsigned char* in = nullptr;
  short* out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, N * sizeof(unsigned char)));
  CUDA_CHECK(cudaMalloc(&out, N * sizeof(short)));
  CUDA_CHECK(cudaMemset(in, 0, N * sizeof(unsigned char)));

  byteStages<<<64, 256>>>(in, out, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("shared_char_short: ok\n");
  return 0;
}
