// global_reinterpret_float4.cu: a float buffer read and written four floats at a time
// through reinterpret_cast<float4*>: each lane moves 16 bytes, 512 contiguous bytes per
// warp, 16 sectors, all useful. cudaMalloc's 256-byte alignment satisfies float4's
// 16-byte requirement.
// Seed 000 cause 3: "float4 v = *reinterpret_cast<float4*>(ptr); // exige ptr % 16 == 0".
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

constexpr int N = 4 * 64 * 256;  // floats

__global__ void scaleVec4(const float* __restrict__ in, float* __restrict__ out, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;  // index of a group of four floats
  if (4 * i < n) {
    float4 v = reinterpret_cast<const float4*>(in)[i];  // expect: global load sectors=16 ideal=16 eta=1.00
    v.x *= factor;
    v.y *= factor;
    v.z *= factor;
    v.w *= factor;
    reinterpret_cast<float4*>(out)[i] = v;  // expect: global store sectors=16 ideal=16 eta=1.00
  }
}

int main() {
  float *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, N * sizeof(float)));
  CUDA_CHECK(cudaMemset(in, 0, N * sizeof(float)));

  scaleVec4<<<64, 256>>>(in, out, 2.0f, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  std::printf("global_reinterpret_float4: ok\n");
  return 0;
}
