// The instances of one place that one translation unit launches share its memory time as their
// denominator, and the place costs what they cost together (lib/report/src/merge_findings.cpp).
// bitsandbytes' gemm_4bit_sm80.cu launches ten instantiations of one GEMM, once each; its 4-way
// shared conflict, half of each kernel's memory time, was 1.9 % of the file's as the largest
// instance's share, so a note; blind panel 29 judged it worth fixing. Here six tile sizes of
// one transpose, each launched once beside a kernel the host loops over: each instance's
// 32-way conflict is under MinProgramShare (2 %) of the unit, the four that store one word per
// thread together above it (5.3 %: a warning; the largest alone gave 1.3 %). nvcc merges the
// stores of two and four rows into 8- and 16-byte ones (a wide-shared conflict, still under the
// share together). Minimal kernels written for this test.
#include <cuda_runtime.h>

template <int ROWS>
__global__ void transposeTile(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[32][32];
  const int x = blockIdx.x * 32 + threadIdx.x;
  for (int r = 0; r < ROWS; ++r) tile[threadIdx.x][r] = in[(blockIdx.y * ROWS + r) * n + x];  // finding: shared-bank-conflict=warning wide-shared-access-conflict=note
  __syncthreads();
  for (int r = 0; r < ROWS; ++r) out[(blockIdx.y * ROWS + r) * n + x] = tile[r][threadIdx.x];  // finding: none
}

__global__ void axpy(const float* __restrict__ x, float* __restrict__ y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * x[i] + y[i];  // finding: none
}

int main() {
  const int n = 1 << 12;
  float *a, *b;
  cudaMalloc(&a, n * n * sizeof(float));
  cudaMalloc(&b, n * n * sizeof(float));
  const dim3 block(32, 1);
  transposeTile<1><<<dim3(n / 32, n / 1), block>>>(a, b, n);
  transposeTile<2><<<dim3(n / 32, n / 2), block>>>(a, b, n);
  transposeTile<4><<<dim3(n / 32, n / 4), block>>>(a, b, n);
  transposeTile<8><<<dim3(n / 32, n / 8), block>>>(a, b, n);
  transposeTile<16><<<dim3(n / 32, n / 16), block>>>(a, b, n);
  transposeTile<32><<<dim3(n / 32, n / 32), block>>>(a, b, n);
  for (int it = 0; it < 100; ++it) axpy<<<n * n / 256, 256>>>(a, b, n * n);
  cudaDeviceSynchronize();
  return 0;
}
