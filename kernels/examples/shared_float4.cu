// shared_float4.cu: 128-bit shared-memory accesses. A float4 spans four banks; the model
// (calibrated on the H200, see lib/model arch.h) serves a 128-bit request in half-warp
// phases, so a contiguous s[t] needs 2 wavefronts per phase, 4 in all, which is also its
// ideal (degree 1). The kernel sums adjacent pairs of float4 staged in shared memory.
//  - s[t] = in[...], s[BLOCK + t] = in[...] (global straight into shared; the copy keeps the
//    load and the store on one line): 4 wavefronts, ideal 4, no conflict.
//  - s[2 * t] and s[2 * t + 1] (every other float4): a half-warp's 16 float4 cover only half
//    of the banks, four words per bank: 4 wavefronts per phase, 8 in all, degree 2.
// Seed 000 §2.3, "Un float4 (16 octets) est traité en quatre phases ... le calcul des
// conflits doit se faire par phase" (the model uses half-warp phases, see field notes §2, §7).
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
constexpr int N = 64 * BLOCK;  // outputs; the input holds 2 * N float4

__global__ void sumPairsVec4(const float4* __restrict__ in, float4* __restrict__ out, int n) {
  __shared__ float4 s[2 * BLOCK];
  int tid = threadIdx.x;
  int base = 2 * blockIdx.x * BLOCK;
  s[tid] = in[base + tid];  // expect: global load sectors=16 ideal=16 eta=1.00 ; shared store wavefronts=4 ideal=4 degree=1
  s[BLOCK + tid] = in[base + BLOCK + tid];  // expect: global load sectors=16 ideal=16 eta=1.00 ; shared store wavefronts=4 ideal=4 degree=1
  __syncthreads();
  float4 even = s[2 * tid];  // expect: shared load wavefronts=8 ideal=4 degree=2 !wide-shared-access-conflict
  float4 odd = s[2 * tid + 1];  // expect: shared load wavefronts=8 ideal=4 degree=2 !wide-shared-access-conflict
  int i = blockIdx.x * BLOCK + tid;
  if (i < n) out[i] = make_float4(even.x + odd.x, even.y + odd.y, even.z + odd.z, even.w + odd.w);  // expect: global store sectors=16 ideal=16 eta=1.00
}

int main() {
  float4 *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, 2 * N * sizeof(float4)));
  CUDA_CHECK(cudaMalloc(&out, N * sizeof(float4)));
  CUDA_CHECK(cudaMemset(in, 0, 2 * N * sizeof(float4)));

  sumPairsVec4<<<64, 256>>>(in, out, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("shared_float4: ok\n");
  return 0;
}
