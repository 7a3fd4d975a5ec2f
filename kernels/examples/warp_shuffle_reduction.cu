// warp_shuffle_reduction.cu: block sum with warp shuffles. Each warp reduces its 32 values
// in registers with __shfl_down_sync (no memory access at all), lane 0 of each warp writes
// one partial to shared memory, then warp 0 reduces the 8 partials and lane 0 adds the
// block's total to the result with one atomic.
//  - in[i]: contiguous, 4 sectors.  - warpSums[warp] by one lane: 1 wavefront.
//  - warpSums[lane] for the 8 first lanes: 8 consecutive words, 1 wavefront.
//  - atomicAdd(out, total) by one lane of one warp: 1 sector.
// divergent-branch reports `if (lane == 0)`: lane 0 of every warp takes it and the other 31
// lanes do not, so all 8 warps split, exactly as `if (lane % 2)` would; the counts cannot
// tell single-lane work from two-sided work. Here the body is one store, so the split costs
// one masked instruction per warp (docs/rules/divergent-branch.md: suppress it with
// NOLINT(divergent-branch) when that is the case). The nested `if (lane == 0)` inside
// `if (warp == 0)` splits one warp of one: the end of a range, not reported.
// Seed 002, "La version moderne combine deux niveaux: une reduction warp-level via les
// instructions de shuffle ... puis une reduction finale" (warpReduceSum).
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
constexpr int WARPS = BLOCK / 32;
constexpr int N = 256 * BLOCK;

__inline__ __device__ float warpReduceSum(float val) {
  for (int offset = warpSize / 2; offset > 0; offset >>= 1)
    val += __shfl_down_sync(0xffffffff, val, offset);
  return val;
}

__global__ void reduceShuffle(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float warpSums[WARPS];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  float val = (i < n) ? in[i] : 0.0f;  // expect: global load sectors=4 ideal=4 eta=1.00
  val = warpReduceSum(val);
  if (lane == 0) warpSums[warp] = val;  // expect-finding: divergent-branch // expect: shared store wavefronts=1 ideal=1 degree=1
  __syncthreads();
  if (warp == 0) {
    val = (lane < WARPS) ? warpSums[lane] : 0.0f;  // expect: shared load wavefronts=1 ideal=1 degree=1
    val = warpReduceSum(val);
    if (lane == 0) atomicAdd(out, val);  // expect: global atomic sectors=1 ideal=1 eta=1.00
  }
}

int main() {
  float *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, sizeof(float)));
  CUDA_CHECK(cudaMemset(in, 0, N * sizeof(float)));
  CUDA_CHECK(cudaMemset(out, 0, sizeof(float)));

  reduceShuffle<<<256, 256>>>(in, out, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("warp_shuffle_reduction: ok\n");
  return 0;
}
