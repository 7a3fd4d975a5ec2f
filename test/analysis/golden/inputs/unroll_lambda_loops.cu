// unroll_lambda_loops.cu: #pragma unroll loops with constant trip counts whose iterations
// differ in alignment, nested loops, a long loop with a partial last iteration, and
// lambdas that compute an index or perform the load.
#include <cuda_runtime.h>

constexpr int N = 1 << 16;

// Iteration r reads 32 floats starting 3*r floats in: residues 0, 12, 24, 36 = 4 mod 32
// bytes: 4, 5, 5, 5 sectors.
__global__ void unrolledShifts(const float* __restrict__ in, float* __restrict__ out) {
  int t = threadIdx.x;
  float s = 0.0f;
#pragma unroll
  for (int r = 0; r < 4; ++r) s += in[blockIdx.x * 128 + t + 3 * r];  // expect: global load sectors=4.75 ideal=4 eta=0.84
  out[blockIdx.x * 32 + t] = s;  // expect: global store sectors=4 ideal=4 eta=1.00
}

// One warp per block walks 8 rows of a matrix with an odd leading dimension (65 floats),
// two 32-float chunks per row: row r starts 260*r bytes in, 4*r mod 32 past a sector.
// Row 0: 4 + 4 sectors; rows 1..7: 5 + 5. Mean over 16 requests: 78 / 16 = 4.875.
__global__ void nestedOddLd(const float* __restrict__ A, float* __restrict__ out, int lda) {
  int lane = threadIdx.x;
  float s = 0.0f;
  for (int r = 0; r < 8; ++r)
    for (int c0 = 0; c0 < 64; c0 += 32) s += A[r * lda + c0 + lane];  // expect: global load sectors=4.875 ideal=4 eta=0.82
  out[blockIdx.x * 32 + lane] = s;  // expect: global store sectors=4 ideal=4 eta=1.00
}

// Warp-per-row sum over a long row of 2100 floats: 66 iterations, 65 full (4 sectors) and a
// last one of 20 lanes (80 bytes, 3 sectors): (65 * 4 + 3) / 66.
__global__ void longRow(const float* __restrict__ m, float* __restrict__ out, int cols) {
  int lane = threadIdx.x;
  const float* row = m + blockIdx.x * 2112;
  float s = 0.0f;
  for (int c = lane; c < cols; c += 32) s += row[c];  // expect: global load sectors=3.985 ideal=3.985 eta=1.00
  if (lane == 0) out[blockIdx.x] = s;  // expect: global store sectors=1 ideal=1 eta=1.00
}

// A lambda computes the row-major index (block 32 x 8).
__global__ void lambdaIndex(const float* __restrict__ in, float* __restrict__ out, int width) {
  auto idx = [width](int r, int c) { return r * width + c; };
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  out[idx(r, c)] = in[idx(r, c)];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00
}

// A lambda performs the loads: in[i] (aligned) and in[i + 1] (4 bytes past).
__global__ void lambdaLoad(const float* __restrict__ in, float* __restrict__ out, int n) {
  auto load = [&](int j) { return in[j]; };  // expect: global load sectors=4 ideal=4 eta=1.00 ; global load sectors=5 ideal=4 eta=0.80
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n) out[i] = load(i) + load(i + 1);  // expect: global store sectors=4 ideal=4 eta=1.00
}

int main() {
  float *a, *b;
  cudaMalloc(&a, 4 * N * sizeof(float));
  cudaMalloc(&b, 4 * N * sizeof(float));
  unrolledShifts<<<N / 128, 32>>>(a, b);
  nestedOddLd<<<16, 32>>>(a, b, 65);
  longRow<<<64, 32>>>(a, b, 2100);
  lambdaIndex<<<dim3(32, 32), dim3(32, 8)>>>(a, b, 1024);
  lambdaLoad<<<N / 256, 256>>>(a, b, N);
  cudaDeviceSynchronize();
  return 0;
}
