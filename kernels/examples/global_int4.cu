// global_int4.cu: a contiguous int4 access, 16 bytes per lane: 32 x 16 = 512 contiguous bytes per warp,
// 16 sectors per request, all of them useful (ideal = 16, eta = 100 %).
// Integer 128-bit accesses (four ints per lane), like float4; seed 000 "Le cas des types larges".
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

__global__ void addOffsets(const int4* __restrict__ in, int4* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int4 v = in[i];  // expect: global load sectors=16 ideal=16 eta=1.00
    v.x += 1;
    v.y += 2;
    v.z += 3;
    v.w += 4;
    out[i] = v;  // expect: global store sectors=16 ideal=16 eta=1.00
  }
}

int main() {
  int4 *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, N * sizeof(int4)));
  CUDA_CHECK(cudaMalloc(&out, N * sizeof(int4)));
  CUDA_CHECK(cudaMemset(in, 0, N * sizeof(int4)));

  addOffsets<<<64, 256>>>(in, out, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("global_int4: ok\n");
  return 0;
}
