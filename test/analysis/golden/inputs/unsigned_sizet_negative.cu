// unsigned_sizet_negative.cu: size_t and unsigned index arithmetic, negative offsets
// (a[x - 1] with x >= 1), lane rotations modulo 32 and pair swaps with ^ 1.
#include <cuda_runtime.h>

constexpr int ROWW = 256;
constexpr int N = 1 << 16;

// One block per row of 256 floats. x >= 1 only: warp 0 loses lane 0.
// in[.. + x]: warp 0 reads bytes 4..127 (4 sectors, 124 bytes -> ideal 4).
// in[.. + x - 1]: warp 0 reads bytes 0..123 (4); warps 1..7 start 4 bytes early (5).
__global__ void backwardDiff(const float* __restrict__ in, float* __restrict__ out, int width) {
  size_t row = blockIdx.x;
  unsigned x = threadIdx.x;
  if (x >= 1) out[row * width + x] = in[row * width + x] - in[row * width + x - 1];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00 ; global load sectors=4.875 ideal=4 eta=0.82
}

// 64-bit global index; a[i - 32] is one warp back (aligned), a[i - 3] 12 bytes back.
__global__ void lagged(const float* __restrict__ a, float* __restrict__ out, size_t n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x + 32;
  if (i < n) out[i] = a[i - 32] + a[i - 3];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00 ; global load sectors=5 ideal=4 eta=0.80
}

// Rotation inside the warp with unsigned arithmetic: a permutation of the warp's 32 floats.
__global__ void rotateLanes(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float s[256];
  unsigned lane = threadIdx.x % 32u;
  unsigned warpBase = threadIdx.x - lane;
  unsigned src = (lane + 31u) % 32u;
  unsigned gbase = blockIdx.x * blockDim.x + warpBase;
  s[threadIdx.x] = in[gbase + src];  // expect: shared store wavefronts=1 ideal=1 degree=1 ; global load sectors=4 ideal=4 eta=1.00
  __syncthreads();
  out[gbase + lane] = s[warpBase + ((lane + 1u) & 31u)];  // expect: global store sectors=4 ideal=4 eta=1.00 ; shared load wavefronts=1 ideal=1 degree=1
}

// Pair swap and pair sharing: idx ^ 1 is a permutation; idx >> 1 has pairs of lanes on one
// float (16 floats, 2 sectors).
__global__ void pairs(const float* __restrict__ in, float* __restrict__ out) {
  unsigned idx = blockIdx.x * blockDim.x + threadIdx.x;
  float a = in[idx ^ 1u];  // expect: global load sectors=4 ideal=4 eta=1.00
  float b = in[(blockIdx.x * blockDim.x >> 1) + (threadIdx.x >> 1)];  // expect: global load sectors=2 ideal=2 eta=1.00
  out[idx] = a + b;  // expect: global store sectors=4 ideal=4 eta=1.00
}

// long long pitch arithmetic with a negative row offset: row y - 1 of a 1024-wide image,
// rows y >= 1 (block 32 x 8, blocks start at row 8).
__global__ void upperNeighbour(const float* __restrict__ img, float* __restrict__ out, long long pitchElems) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = (blockIdx.y + 1) * blockDim.y + threadIdx.y;
  out[(long long)y * pitchElems + x] = img[(long long)(y - 1) * pitchElems + x];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00
}

int main() {
  float *a, *b;
  cudaMalloc(&a, 4 * N * sizeof(float));
  cudaMalloc(&b, 4 * N * sizeof(float));
  backwardDiff<<<N / ROWW, ROWW>>>(a, b, ROWW);
  lagged<<<N / 256, 256>>>(a, b, (size_t)N);
  rotateLanes<<<N / 256, 256>>>(a, b);
  pairs<<<N / 256, 256>>>(a, b);
  upperNeighbour<<<dim3(32, 31), dim3(32, 8)>>>(a, b, 1024);
  cudaDeviceSynchronize();
  return 0;
}
