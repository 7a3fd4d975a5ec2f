// divergence_bounds_tail.cu: bounds checks that switch lanes off at the end of a range of
// threads. They split at most the warp at each end of the range, where no restructuring
// could pack the active threads into fewer warps, and are not reported by divergent-branch:
//  - rowTail: rows of 100 floats (pitch 128), one 128-thread block per row, `if (col <
//    width)`: warps 0-2 are full, warp 3 keeps lanes 96-99 (1 sector): (3 x 4 + 1) / 4 = 3.25
//    sectors per request, ideal 3.25. One split warp in four.
//  - partialBlock: a block of 100 threads (3 full warps and a 4-lane last warp, sized for the
//    widest row) over rows of 98 floats: only the block's partial last warp splits (lanes 96
//    and 97 on, 98 and 99 off). Mean (3 x 4 + 1) / 4 = 3.25 sectors, ideal 3.25.
//  - interior: a 256-element tile with a one-element halo at each end, `if (t >= 1 && t <
//    BLOCK - 1)`: warps 0 and 7 split (lanes 0 and 255 off), the six others do not; the
//    31-lane stores of warps 0 and 7 still span 4 sectors, as many as their 124 bytes need.
// Seed 002 counts "des tests de bornes mal alignes sur la taille de warp" as avoidable when
// they split many warps; a tail is the one case that cannot be avoided.
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

constexpr int ROWS = 256;
constexpr int PITCH = 128;
constexpr int BLOCK = 256;
constexpr int N = 256 * BLOCK;

__global__ void rowTail(const float* __restrict__ in, float* __restrict__ out, int width) {
  int row = blockIdx.x;
  int col = threadIdx.x;
  if (col < width) {
    float v = in[row * PITCH + col];  // expect: global load sectors=3.25 ideal=3.25 eta=1.00
    out[row * PITCH + col] = 2.0f * v;  // expect: global store sectors=3.25 ideal=3.25 eta=1.00
  }
}

__global__ void partialBlock(const float* __restrict__ in, float* __restrict__ out, int width) {
  int row = blockIdx.x;
  int col = threadIdx.x;
  if (col < width) {
    float v = in[row * PITCH + col];  // expect: global load sectors=3.25 ideal=3.25 eta=1.00
    out[row * PITCH + col] = 2.0f * v;  // expect: global store sectors=3.25 ideal=3.25 eta=1.00
  }
}

__global__ void interior(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float tile[BLOCK];
  int t = threadIdx.x;
  int i = blockIdx.x * BLOCK + t;
  tile[t] = in[i];  // expect: global load sectors=4 ideal=4 eta=1.00 ; shared store wavefronts=1 ideal=1 degree=1
  __syncthreads();
  if (t >= 1 && t < BLOCK - 1) {
    float sum = tile[t - 1] + tile[t] + tile[t + 1];  // expect: shared load wavefronts=1 ideal=1 degree=1 ; shared load wavefronts=1 ideal=1 degree=1 ; shared load wavefronts=1 ideal=1 degree=1
    out[i] = sum / 3.0f;  // expect: global store sectors=4 ideal=4 eta=1.00
  }
}

int main() {
  float *rowsIn = nullptr, *rowsOut = nullptr, *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&rowsIn, ROWS * PITCH * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&rowsOut, ROWS * PITCH * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&in, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, N * sizeof(float)));
  CUDA_CHECK(cudaMemset(rowsIn, 0, ROWS * PITCH * sizeof(float)));
  CUDA_CHECK(cudaMemset(in, 0, N * sizeof(float)));

  rowTail<<<256, 128>>>(rowsIn, rowsOut, 100);
  CUDA_CHECK(cudaGetLastError());
  partialBlock<<<256, 100>>>(rowsIn, rowsOut, 98);
  CUDA_CHECK(cudaGetLastError());
  interior<<<256, 256>>>(in, out);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(rowsIn));
  CUDA_CHECK(cudaFree(rowsOut));
  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("divergence_bounds_tail: ok\n");
  return 0;
}
