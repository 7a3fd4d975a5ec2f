// occupancy_dynamic_shared.cu: blocks of 64 threads whose window of 5120 floats (20 KB) is
// dynamic shared memory, sized by the launch's third argument. 20480 + 1 KB reserved =
// 21504 bytes a block: 10 blocks fit in an sm_90 SM's 228 KB, 20 of its 64 warps, 31.25 %
// theoretical occupancy, limited by shared memory (the block slots would allow 32); the
// occupancy-limited hint names the kernel. Every access is a stride-1 run of 64 floats per
// block row (4 sectors, 1 wavefront per warp). CUDA Occupancy Calculator; seed 002, checklist item 7.
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

constexpr int BLOCK = 64;
constexpr int WINDOW = 5120;  // floats: 20 KB
constexpr int BLOCKS = 64;

__global__ void windowSums(const float* __restrict__ in, float* __restrict__ out) {  // expect-hint: occupancy-limited
  extern __shared__ float window[];
  int tid = threadIdx.x;
  const float* src = in + blockIdx.x * WINDOW;
  for (int r = 0; r < WINDOW / BLOCK; ++r) window[r * BLOCK + tid] = src[r * BLOCK + tid];  // expect: global load sectors=4 ideal=4 eta=1.00 ; shared store wavefronts=1 ideal=1 degree=1
  __syncthreads();
  float s = 0.0f;
  for (int r = 0; r < WINDOW / BLOCK; ++r) s += window[r * BLOCK + (BLOCK - 1 - tid)];  // expect: shared load wavefronts=1 ideal=1 degree=1
  out[blockIdx.x * BLOCK + tid] = s;  // expect: global store sectors=4 ideal=4 eta=1.00
}

int main() {
  float *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, BLOCKS * WINDOW * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, BLOCKS * BLOCK * sizeof(float)));
  CUDA_CHECK(cudaMemset(in, 0, BLOCKS * WINDOW * sizeof(float)));

  windowSums<<<BLOCKS, BLOCK, WINDOW * sizeof(float)>>>(in, out);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("occupancy_dynamic_shared: ok\n");
  return 0;
}
