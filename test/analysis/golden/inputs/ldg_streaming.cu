// ldg_streaming.cu: loads and stores through cache-hint intrinsics (__ldg, __ldcs, __ldcg,
// __stcs, __stwt). They move the same bytes as a plain access at the same address.
#include <cuda_runtime.h>

constexpr int N = 1 << 16;

__global__ void ldgMix(const float* __restrict__ a, const float4* __restrict__ b, float* __restrict__ out,
                       float4* __restrict__ out4, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = __ldg(&a[i]);  // expect: global load sectors=4 ideal=4 eta=1.00
    float y = __ldg(a + 2 * i + 1);  // expect: global load sectors=8 ideal=4 eta=0.50
    float4 v = __ldg(&b[i]);  // expect: global load sectors=16 ideal=16 eta=1.00
    float z = __ldcs(&a[i + 32]);  // expect: global load sectors=4 ideal=4 eta=1.00
    float w = __ldcg(a + i + 1);  // expect: global load sectors=5 ideal=4 eta=0.80
    __stcs(&out[i], x + y + z + w);  // expect: global store sectors=4 ideal=4 eta=1.00
    __stwt(&out4[i], v);  // expect: global store sectors=16 ideal=16 eta=1.00
  }
}

// Read-only gather of a row of a matrix through __ldg, one warp per row (block 32 x 4).
__global__ void ldgRows(const float* __restrict__ m, float* __restrict__ out, int cols) {
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += 32) s += __ldg(&m[row * cols + c]);  // expect: global load sectors=4 ideal=4 eta=1.00
  if (threadIdx.x == 0) out[row] = s;  // expect: global store sectors=1 ideal=1 eta=1.00
}

int main() {
  float *a, *out, *m;
  float4 *b, *out4;
  cudaMalloc(&a, 3 * N * sizeof(float));
  cudaMalloc(&b, N * sizeof(float4));
  cudaMalloc(&out, N * sizeof(float));
  cudaMalloc(&out4, N * sizeof(float4));
  cudaMalloc(&m, N * 256 * sizeof(float));
  ldgMix<<<N / 256, 256>>>(a, b, out, out4, N);
  ldgRows<<<64, dim3(32, 4)>>>(m, out, 256);
  cudaDeviceSynchronize();
  return 0;
}
