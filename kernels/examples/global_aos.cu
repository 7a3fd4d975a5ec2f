// global_aos.cu: Array of Structures. Each particle is a 24-byte struct; reading one float
// field, p[i].x, puts neighbouring lanes 24 bytes apart: a warp spans 768 bytes and touches
// all 24 of its sectors to use 128 bytes (eta = 4 / 24, about 17 %). Every field read costs
// the same. See global_soa.cu and global_aosoa.cu for the fixes.
// Seed 000 cause 2 (disposition AoS): "float px = p[i].x; // pas de 24 octets -> eta ~ 17 %";
// field notes §2: "one float field of a 24-byte struct, p[i].x: 24 sectors".
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

struct Particle {
  float x, y, z, vx, vy, vz;
};

__global__ void distanceFromOrigin(const Particle* __restrict__ p, float* __restrict__ dist, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float px = p[i].x;  // expect: global load sectors=24 ideal=4 eta=0.17 !aos-field-access
    float py = p[i].y;  // expect: global load sectors=24 ideal=4 eta=0.17 !aos-field-access
    float pz = p[i].z;  // expect: global load sectors=24 ideal=4 eta=0.17 !aos-field-access
    dist[i] = sqrtf(px * px + py * py + pz * pz);  // expect: global store sectors=4 ideal=4 eta=1.00
  }
}

int main() {
  Particle* p = nullptr;
  float* dist = nullptr;
  CUDA_CHECK(cudaMalloc(&p, N * sizeof(Particle)));
  CUDA_CHECK(cudaMalloc(&dist, N * sizeof(float)));
  CUDA_CHECK(cudaMemset(p, 0, N * sizeof(Particle)));

  distanceFromOrigin<<<64, 256>>>(p, dist, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(p));
  CUDA_CHECK(cudaFree(dist));
  std::printf("global_aos: ok\n");
  return 0;
}
