// global_nbody_naive.cu: the all-pairs n-body step without a shared tile. Every thread of
// a block walks all bodies: pos[j] is one float4 per iteration, the same address in every
// lane (a broadcast: 1 sector per warp request, eta = 100 %), and the same for the block's
// 8 warps: the block requests 128 bytes per iteration for 16 distinct bytes (reuse 8x), so
// the shared-tiling-opportunity hint names it (GPU Gems 3, ch. 31, stages blockDim.x bodies
// in shared memory per tile). nbodyOneWarp runs the same loop on one-warp blocks: the reuse
// is then only between the lanes of one warp, a broadcast, and the hint stays quiet.
// Field notes: a uniform load costs one sector per warp request.
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

constexpr int BODIES = 4096;
constexpr int BLOCK = 256;

__global__ void nbodyNaive(const float4* __restrict__ pos, float4* __restrict__ accel, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 pi = pos[i];  // expect: global load sectors=16 ideal=16 eta=1.00
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int j = 0; j < n; ++j) {
    float4 pj = pos[j];  // expect: global load sectors=1 ideal=1 eta=1.00 // expect-hint: shared-tiling-opportunity
    float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
    float inv = rsqrtf(dx * dx + dy * dy + dz * dz + 1e-3f);
    float s = pj.w * inv * inv * inv;
    ax += dx * s;
    ay += dy * s;
    az += dz * s;
  }
  accel[i] = make_float4(ax, ay, az, 0.0f);  // expect: global store sectors=16 ideal=16 eta=1.00
}

__global__ void nbodyOneWarp(const float4* __restrict__ pos, float4* __restrict__ accel, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 pi = pos[i];  // expect: global load sectors=16 ideal=16 eta=1.00
  float ax = 0.0f;
  for (int j = 0; j < n; ++j) {
    float4 pj = pos[j];  // expect: global load sectors=1 ideal=1 eta=1.00
    float dx = pj.x - pi.x;
    ax += dx * pj.w;
  }
  accel[i] = make_float4(ax, 0.0f, 0.0f, 0.0f);  // expect: global store sectors=16 ideal=16 eta=1.00
}

int main() {
  float4 *pos = nullptr, *accel = nullptr;
  CUDA_CHECK(cudaMalloc(&pos, BODIES * sizeof(float4)));
  CUDA_CHECK(cudaMalloc(&accel, BODIES * sizeof(float4)));
  CUDA_CHECK(cudaMemset(pos, 0, BODIES * sizeof(float4)));

  nbodyNaive<<<BODIES / BLOCK, BLOCK>>>(pos, accel, BODIES);
  CUDA_CHECK(cudaGetLastError());
  nbodyOneWarp<<<BODIES / 32, 32>>>(pos, accel, BODIES);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(pos));
  CUDA_CHECK(cudaFree(accel));
  std::printf("global_nbody_naive: ok\n");
  return 0;
}
