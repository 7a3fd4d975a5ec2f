// occupancy_static_shared.cu: a block of 128 threads stages 96 rows of 128 floats, 48 KB of
// static shared memory. With the runtime's 1 KB per block, 50176 bytes a block: 4 blocks fit
// in an sm_90 SM's 228 KB, 16 of its 64 warps, 25 % theoretical occupancy, limited by
// shared memory; the occupancy-limited hint names the kernel. Every access is a stride-1 run
// (4 sectors, 1 wavefront). CUDA C++ Programming Guide, "Occupancy Calculator"; seed 002,
// "Occupancy : dimensionner blocs et registres" and its checklist, item 7.
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

constexpr int BLOCK = 128;
constexpr int ROWS = 96;  // ROWS * BLOCK floats = 48 KB, the most a block declares statically
constexpr int BLOCKS = 64;

__global__ void rowSums(const float* __restrict__ in, float* __restrict__ out) {  // expect-hint: occupancy-limited
  __shared__ float stage[ROWS][BLOCK];
  int tid = threadIdx.x;
  const float* src = in + blockIdx.x * ROWS * BLOCK;
  for (int r = 0; r < ROWS; ++r) stage[r][tid] = src[r * BLOCK + tid];  // expect: global load sectors=4 ideal=4 eta=1.00 ; shared store wavefronts=1 ideal=1 degree=1
  __syncthreads();
  float s = 0.0f;
  for (int r = 0; r < ROWS; ++r) s += stage[r][BLOCK - 1 - tid];  // expect: shared load wavefronts=1 ideal=1 degree=1
  out[blockIdx.x * BLOCK + tid] = s;  // expect: global store sectors=4 ideal=4 eta=1.00
}

int main() {
  float *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, BLOCKS * ROWS * BLOCK * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, BLOCKS * BLOCK * sizeof(float)));
  CUDA_CHECK(cudaMemset(in, 0, BLOCKS * ROWS * BLOCK * sizeof(float)));

  rowSums<<<BLOCKS, BLOCK>>>(in, out);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("occupancy_static_shared: ok\n");
  return 0;
}
