// ptr_bump_loops.cu: pointers advanced inside loops (p += stride, ++p, p += LD) instead of
// indexing. The figures depend on where the bumped pointer lands in each iteration.
#include <cuda_runtime.h>

constexpr int ROWS = 64;
constexpr int COLS = 4096;
constexpr int TAPS = 8;
constexpr int LD = 33;

// One thread per column walks down its column by bumping a row pointer by a whole row
// (16 KiB): every step the warp reads 32 consecutive floats of one row.
__global__ void columnSumBump(const float* __restrict__ m, float* __restrict__ sums, int rows, int cols) {
  const float* p = m + blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int r = 0; r < rows; ++r) {
    s += *p;  // expect: global load sectors=4 ideal=4 eta=1.00
    p += cols;
  }
  sums[blockIdx.x * blockDim.x + threadIdx.x] = s;  // expect: global store sectors=4 ideal=4 eta=1.00
}

// 8-tap FIR with a sliding pointer: tap t reads x[i + t], so the warp's 128 bytes start
// 4*t bytes past a sector boundary: tap 0 touches 4 sectors, taps 1..7 touch 5.
__global__ void fir8(const float* __restrict__ x, const float* __restrict__ h, float* __restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float* xp = x + i;
  float acc = 0.0f;
  for (int t = 0; t < TAPS; ++t) {
    acc += h[t] * *xp;  // expect: global load sectors=1 ideal=1 eta=1.00 ; global load sectors=4.875 ideal=4 eta=0.82
    ++xp;
  }
  y[i] = acc;  // expect: global store sectors=4 ideal=4 eta=1.00
}

// One warp per block walks a row-major matrix with an odd leading dimension (33 floats):
// row r starts 132*r bytes in, 4*r mod 32 past a sector boundary. After 8 rows the pointer
// is 8*132 = 1056 bytes in: sector-aligned again.
__global__ void oddPitchWalk(float* __restrict__ m) {
  float* p = m + blockIdx.x * (LD * 8) + threadIdx.x;
  float s = 0.0f;
  for (int r = 0; r < 8; ++r) {
    s += p[0];  // expect: global load sectors=4.875 ideal=4 eta=0.82
    p += LD;
  }
  *p = s;  // expect: global store sectors=4 ideal=4 eta=1.00
}

// float4 stream through a pointer compared against an end pointer.
__global__ void sumFloat4Stream(const float4* __restrict__ in, float* __restrict__ out, int n4) {
  const float4* p = in + blockIdx.x * blockDim.x + threadIdx.x;
  const float4* end = in + n4;
  float s = 0.0f;
  while (p < end) {
    float4 v = *p;  // expect: global load sectors=16 ideal=16 eta=1.00
    s += v.x + v.y + v.z + v.w;
    p += blockDim.x * gridDim.x;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;  // expect: global store sectors=4 ideal=4 eta=1.00
}

// Each thread owns 4 consecutive floats and walks them with p++: in step j the lanes are
// 16 bytes apart, 4 bytes each: 16 sectors for 4 sectors of data.
__global__ void perThreadChunk(const float* __restrict__ in, float* __restrict__ out) {
  const float* p = in + 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  float s = 0.0f;
  for (int j = 0; j < 4; ++j) s += *p++;  // expect: global load sectors=16 ideal=4 eta=0.25
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;  // expect: global store sectors=4 ideal=4 eta=1.00
}

int main() {
  float *m, *sums, *x, *h, *y, *out;
  float4* in4;
  cudaMalloc(&m, ROWS * COLS * sizeof(float));
  cudaMalloc(&sums, COLS * sizeof(float));
  cudaMalloc(&x, (COLS + TAPS) * sizeof(float));
  cudaMalloc(&h, TAPS * sizeof(float));
  cudaMalloc(&y, COLS * sizeof(float));
  cudaMalloc(&in4, COLS * sizeof(float4));
  cudaMalloc(&out, COLS * sizeof(float));
  columnSumBump<<<COLS / 256, 256>>>(m, sums, ROWS, COLS);
  fir8<<<COLS / 256, 256>>>(x, h, y);
  oddPitchWalk<<<16, 32>>>(m);
  sumFloat4Stream<<<8, 256>>>(in4, out, COLS);
  perThreadChunk<<<4, 256>>>(m, out);
  cudaDeviceSynchronize();
  return 0;
}
