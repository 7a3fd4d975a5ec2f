// global_partial_warp.cu: a block of 100 threads, which is 3 full warps and a last warp of
// only 4 lanes. One block per row of 100 features, rows padded to a pitch of 128 floats
// (512 bytes, so every block starts sector-aligned). Full warps read 4 sectors; the last
// warp reads 16 bytes, 1 sector. Mean over the 4 warps: (4 + 4 + 4 + 1) / 4 = 3.25 sectors
// for an ideal of 3.25: eta = 100 %. A partial warp wastes lanes, not sectors.
// The per-row norm is a block-uniform load: 1 sector per request.
// Field notes §7 / design notes ("Predicated-off lanes ... the tail warp partly empty").
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
constexpr int FEATURES = 100;
constexpr int PITCH = 128;
static_assert(FEATURES <= PITCH, "a row must fit in its pitch");

__global__ void normalizeRows(const float* __restrict__ in, const float* __restrict__ norms, float* __restrict__ out) {
  int row = blockIdx.x;
  int f = threadIdx.x;  // 0 .. FEATURES - 1
  float nrm = norms[row];  // expect: global load sectors=1 ideal=1 eta=1.00
  float v = in[row * PITCH + f];  // expect: global load sectors=3.25 ideal=3.25 eta=1.00
  out[row * PITCH + f] = v / nrm;  // expect: global store sectors=3.25 ideal=3.25 eta=1.00
}

int main() {
  float *in = nullptr, *norms = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, ROWS * PITCH * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&norms, ROWS * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, ROWS * PITCH * sizeof(float)));
  CUDA_CHECK(cudaMemset(in, 0, ROWS * PITCH * sizeof(float)));
  CUDA_CHECK(cudaMemset(norms, 0, ROWS * sizeof(float)));

  normalizeRows<<<256, 100>>>(in, norms, out);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(norms));
  CUDA_CHECK(cudaFree(out));
  std::printf("global_partial_warp: ok\n");
  return 0;
}
