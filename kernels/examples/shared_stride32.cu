// shared_stride32.cu: a 32-bit shared-memory access at a stride of 32 words, s[32 * t].
// Each thread of a 256-thread block owns a slot of 32 floats in shared memory (a per-thread
// scratch row) and the block reverses its values through these slots: the write is
// slots[t * 32], the read slots[(255 - t) * 32]. Within a warp: words 32t: every lane in bank 0, 32 wavefronts.
// Seed 000 §2.3, table row "s[32t]: banc 0, 32 voies" (seed 001: "stride 32: 32-way bank, worst case").
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
constexpr int STRIDE = 32;
constexpr int N = 64 * BLOCK;

__global__ void reverseThroughSlots32(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float slots[BLOCK * STRIDE];
  int tid = threadIdx.x;
  int i = blockIdx.x * BLOCK + tid;
  float v = (i < n) ? in[i] : 0.0f;  // expect: global load sectors=4 ideal=4 eta=1.00
  slots[tid * STRIDE] = v;  // expect: shared store wavefronts=32 ideal=1 degree=32 !shared-bank-conflict
  __syncthreads();
  float r = slots[(BLOCK - 1 - tid) * STRIDE];  // expect: shared load wavefronts=32 ideal=1 degree=32 !shared-bank-conflict
  if (i < n) out[i] = r;  // expect: global store sectors=4 ideal=4 eta=1.00
}

int main() {
  float *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, N * sizeof(float)));
  CUDA_CHECK(cudaMemset(in, 0, N * sizeof(float)));

  reverseThroughSlots32<<<64, 256>>>(in, out, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("shared_stride32: ok\n");
  return 0;
}
