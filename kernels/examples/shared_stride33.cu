// shared_stride33.cu: a 32-bit shared-memory access at a stride of 33 words, s[33 * t].
// Each thread of a 256-thread block owns a slot of 33 floats in shared memory (a per-thread
// scratch row) and the block reverses its values through these slots: the write is
// slots[t * 33], the read slots[(255 - t) * 33]. Within a warp: words 33t: banks 33t mod 32 = t, all different, 1 wavefront.
// Seed 000 §2.3, table row "s[33t]: 33t mod 32 = t, aucun" (the padding trick).
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
constexpr int STRIDE = 33;
constexpr int N = 64 * BLOCK;

__global__ void reverseThroughSlots33(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float slots[BLOCK * STRIDE];
  int tid = threadIdx.x;
  int i = blockIdx.x * BLOCK + tid;
  float v = (i < n) ? in[i] : 0.0f;  // expect: global load sectors=4 ideal=4 eta=1.00
  slots[tid * STRIDE] = v;  // expect: shared store wavefronts=1 ideal=1 degree=1
  __syncthreads();
  float r = slots[(BLOCK - 1 - tid) * STRIDE];  // expect: shared load wavefronts=1 ideal=1 degree=1
  if (i < n) out[i] = r;  // expect: global store sectors=4 ideal=4 eta=1.00
}

int main() {
  float *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, N * sizeof(float)));
  CUDA_CHECK(cudaMemset(in, 0, N * sizeof(float)));

  reverseThroughSlots33<<<64, 256>>>(in, out, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("shared_stride33: ok\n");
  return 0;
}
