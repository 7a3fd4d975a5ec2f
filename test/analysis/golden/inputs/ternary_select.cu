// ternary_select.cu: addresses chosen by the conditional operator or by if/else, with a
// lane-varying or a warp-uniform condition.
#include <cuda_runtime.h>

constexpr int N = 1 << 16;

// Interleave real and imaginary parts: even lanes read re[i/2], odd lanes im[i/2]. Each
// load has 16 active lanes over 16 consecutive floats: 2 sectors, all used.
__global__ void interleaveComplex(const float* __restrict__ re, const float* __restrict__ im, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = (i & 1) ? im[i / 2] : re[i / 2];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=2 ideal=2 eta=1.00 ; global load sectors=2 ideal=2 eta=1.00
}

// The same through a pointer chosen per lane: the warp touches 2 sectors of re and 2 of
// im, separate allocations: 4 sectors for 128 bytes.
__global__ void interleaveComplexPtr(const float* __restrict__ re, const float* __restrict__ im, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float* src = (i & 1) ? im : re;
  out[i] = src[i / 2];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00
}

// A warp-uniform choice of source array (blockIdx.y selects the plane).
__global__ void planeSelect(const float* __restrict__ y, const float* __restrict__ uv, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float* src = (blockIdx.y == 0) ? y : uv;
  out[blockIdx.y * n + i] = src[i];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00
}

// Even/odd split of a warp: lanes 0..15 read the even elements 0..30, lanes 16..31 the odd
// elements 1..31 of the warp's 32 floats: all 128 bytes, 4 sectors.
__global__ void evenOddShuffle(const float* __restrict__ in, float* __restrict__ out) {
  int lane = threadIdx.x % 32;
  int base = blockIdx.x * blockDim.x + (threadIdx.x - lane);
  int j = (lane < 16) ? 2 * lane : 2 * (lane - 16) + 1;
  out[base + lane] = in[base + j];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00
}

// Index chosen by if/else: even warps read their 32 words contiguously, odd warps with a
// stride of 2 words (2-way bank conflict). Block of 256: 4 warps of each.
__global__ void ifElseIndex(float* __restrict__ out) {
  __shared__ float s[2 * 256];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  s[threadIdx.x] = (float)threadIdx.x;  // expect: shared store wavefronts=1 ideal=1 degree=1
  s[threadIdx.x + 256] = 0.0f;  // expect: shared store wavefronts=1 ideal=1 degree=1
  __syncthreads();
  int idx;
  if (warp & 1)
    idx = warp * 64 + lane * 2;
  else
    idx = warp * 32 + lane;
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[idx];  // expect: global store sectors=4 ideal=4 eta=1.00 ; shared load wavefronts=1.5 ideal=1 degree=1.5
}

// Clamp with the conditional operator at the end of the array: n = N from the launch, no
// lane of a full block is clamped.
__global__ void clampTernary(const float* __restrict__ in, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i < n ? i : n - 1];  // expect: global load sectors=4 ideal=4 eta=1.00
  float w = in[min(i + 1, n - 1)];  // expect: global load sectors=5 ideal=4 eta=0.80
  if (i < n) out[i] = v + w;  // expect: global store sectors=4 ideal=4 eta=1.00
}

// Two buffers swapped by 48 run-time choices, as a chain of helpers passing the same arrays
// down every arm does (BitCrack's secp256k1 code): each branch merges "a or b" with "b or a".
// The merged allocation is named once per buffer ("a or b"); its name doubled at each merge
// until the analysis of one such file took 24 GB (lib/analysis/src/interpreter.cpp,
// Interpreter::merge; Root::alternatives). Uniform choices: each warp reads 32 consecutive floats of one buffer.
#define SWAP_IF(k) if ((mask >> (k)) & 1ull) { const float* t = p; p = q; q = t; }
#define SWAP_IF8(k) SWAP_IF(k) SWAP_IF(k + 1) SWAP_IF(k + 2) SWAP_IF(k + 3) SWAP_IF(k + 4) SWAP_IF(k + 5) SWAP_IF(k + 6) SWAP_IF(k + 7)
__global__ void swappedManyTimes(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ out,
                                 unsigned long long mask) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float* p = a;
  const float* q = b;
  SWAP_IF8(0) SWAP_IF8(8) SWAP_IF8(16) SWAP_IF8(24) SWAP_IF8(32) SWAP_IF8(40)
  out[i] = p[i] + q[i];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00
}

int main(int argc, char**) {
  float *re, *im, *out;
  cudaMalloc(&re, N * sizeof(float));
  cudaMalloc(&im, N * sizeof(float));
  cudaMalloc(&out, 2 * N * sizeof(float));
  interleaveComplex<<<2 * N / 256, 256>>>(re, im, out);
  interleaveComplexPtr<<<2 * N / 256, 256>>>(re, im, out);
  planeSelect<<<dim3(N / 256, 2), 256>>>(re, im, out, N);
  evenOddShuffle<<<N / 256, 256>>>(re, out);
  ifElseIndex<<<N / 256, 256>>>(out);
  clampTernary<<<N / 256, 256>>>(re, out, N);
  swappedManyTimes<<<N / 256, 256>>>(re, im, out, static_cast<unsigned long long>(argc));
  cudaDeviceSynchronize();
  return 0;
}
