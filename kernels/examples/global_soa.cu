// global_soa.cu: Structure of Arrays, the fix for global_aos.cu. Each field is its own
// contiguous array, so p.x[i] is a stride-1 float access: 4 sectors, eta = 100 %.
// Seed 000 cause 2, "SoA: chaque champ est un tableau contigu; float px = p.x[i]; // eta = 100 %"
// and "La règle SoA".
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

struct Particles {
  float *x, *y, *z, *vx, *vy, *vz;
};

__global__ void distanceFromOrigin(Particles p, float* __restrict__ dist, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float px = p.x[i];  // expect: global load sectors=4 ideal=4 eta=1.00
    float py = p.y[i];  // expect: global load sectors=4 ideal=4 eta=1.00
    float pz = p.z[i];  // expect: global load sectors=4 ideal=4 eta=1.00
    dist[i] = sqrtf(px * px + py * py + pz * pz);  // expect: global store sectors=4 ideal=4 eta=1.00
  }
}

int main() {
  Particles p{};
  float** fields[] = {&p.x, &p.y, &p.z, &p.vx, &p.vy, &p.vz};
  for (float** f : fields) {
    CUDA_CHECK(cudaMalloc(f, N * sizeof(float)));
    CUDA_CHECK(cudaMemset(*f, 0, N * sizeof(float)));
  }
  float* dist = nullptr;
  CUDA_CHECK(cudaMalloc(&dist, N * sizeof(float)));

  distanceFromOrigin<<<64, 256>>>(p, dist, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  for (float** f : fields) CUDA_CHECK(cudaFree(*f));
  CUDA_CHECK(cudaFree(dist));
  std::printf("global_soa: ok\n");
  return 0;
}
