// shared_reduction_sequential.cu: block sum in shared memory with sequential addressing:
// at step s the threads tid < s add sdata[tid + s] into sdata[tid]. Active lanes are
// contiguous, every access is a stride-1 run: 1 wavefront whatever s (for s < 32 only
// warp 0 takes part, with s active lanes; idle warps issue no request).
// Seed 002, "Le pattern de reduction" (the version that avoids "l'indexation par pas");
// the conflicting interleaved version is shared_reduction_interleaved.cu.
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
constexpr int N = 256 * BLOCK;

__global__ void reduceSequential(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (i < n) ? in[i] : 0.0f;  // expect: global load sectors=4 ideal=4 eta=1.00
  sdata[tid] = v;  // expect: shared store wavefronts=1 ideal=1 degree=1
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];  // expect: shared load wavefronts=1 ideal=1 degree=1 ; shared load wavefronts=1 ideal=1 degree=1 ; shared store wavefronts=1 ideal=1 degree=1
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];  // expect: shared load wavefronts=1 ideal=1 degree=1 ; global store sectors=1 ideal=1 eta=1.00
}

int main() {
  float *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, (N / BLOCK) * sizeof(float)));
  CUDA_CHECK(cudaMemset(in, 0, N * sizeof(float)));

  reduceSequential<<<256, 256>>>(in, out, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("shared_reduction_sequential: ok\n");
  return 0;
}
