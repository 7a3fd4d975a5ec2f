// global_aosoa.cu: Array of Structures of Arrays. Particles are grouped by 32, one struct
// per group holding 32 x, then 32 y, then 32 z. A warp (32 consecutive i, aligned to 32)
// reads one group: pts[i / 32].x[i % 32] is 128 contiguous bytes, 4 sectors, eta = 100 %,
// while each group keeps the locality of a struct.
// Seed 000 cause 2, "Cas intermédiaire utile: AoSoA ... struct { float x[32], y[32], z[32]; }".
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

constexpr int N = 64 * 256;
constexpr int GROUP = 32;

struct PointGroup {
  float x[GROUP], y[GROUP], z[GROUP];
};

__global__ void distanceFromOrigin(const PointGroup* __restrict__ pts, float* __restrict__ dist, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float px = pts[i / GROUP].x[i % GROUP];  // expect: global load sectors=4 ideal=4 eta=1.00
    float py = pts[i / GROUP].y[i % GROUP];  // expect: global load sectors=4 ideal=4 eta=1.00
    float pz = pts[i / GROUP].z[i % GROUP];  // expect: global load sectors=4 ideal=4 eta=1.00
    dist[i] = sqrtf(px * px + py * py + pz * pz);  // expect: global store sectors=4 ideal=4 eta=1.00
  }
}

int main() {
  PointGroup* pts = nullptr;
  float* dist = nullptr;
  CUDA_CHECK(cudaMalloc(&pts, (N / GROUP) * sizeof(PointGroup)));
  CUDA_CHECK(cudaMalloc(&dist, N * sizeof(float)));
  CUDA_CHECK(cudaMemset(pts, 0, (N / GROUP) * sizeof(PointGroup)));

  distanceFromOrigin<<<64, 256>>>(pts, dist, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(pts));
  CUDA_CHECK(cudaFree(dist));
  std::printf("global_aosoa: ok\n");
  return 0;
}
