// warp_lane_idioms.cu: warp-level decompositions (lane = threadIdx.x % 32, warp =
// threadIdx.x / 32), indices broadcast with __shfl_sync, warp-aggregated atomics, and the
// thread index obtained through uint3 / int2 copies or cooperative groups.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

constexpr int N = 1 << 16;
constexpr int COLS = 64;

// Warp per row of 64 floats (block 256 = 8 rows): two 128-byte halves.
__global__ void warpPerRow(const float* __restrict__ vals, float* __restrict__ rowSum) {
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  int row = blockIdx.x * (blockDim.x / 32) + warp;
  float s = vals[row * COLS + lane] + vals[row * COLS + lane + 32];  // expect: global load sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00
  for (int off = 16; off > 0; off /= 2) s += __shfl_xor_sync(0xffffffffu, s, off);
  if (lane == 0) rowSum[row] = s;  // expect: global store sectors=1 ideal=1 eta=1.00
}

// The row start computed by lane 0 and broadcast: warp-uniform.
__global__ void shflBroadcastBase(const float* __restrict__ vals, float* __restrict__ out) {
  int lane = threadIdx.x & 31;
  int warp = threadIdx.x >> 5;
  int start = 0;
  if (lane == 0) start = (blockIdx.x * 8 + warp) * COLS;
  start = __shfl_sync(0xffffffffu, start, 0);
  out[start + lane] = vals[start + lane];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00
}

// Warp-aggregated append: lane 0 reserves 32 slots, the warp writes them contiguously.
__global__ void appendWarp(const float* __restrict__ in, float* __restrict__ out, int* counter) {
  int lane = threadIdx.x % 32;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];  // expect: global load sectors=4 ideal=4 eta=1.00
  int base = 0;
  if (lane == 0) base = atomicAdd(counter, 32);  // expect: global atomic sectors=1 ideal=1 eta=1.00
  base = __shfl_sync(0xffffffffu, base, 0);
  out[base + lane] = v;  // expect: global store sectors=4 ideal=4 eta=1.00
}

// threadIdx copied whole into a uint3.
__global__ void uint3Copy(const float* __restrict__ in, float* __restrict__ out) {
  const uint3 t = threadIdx;
  const uint3 b = blockIdx;
  int i = b.x * 256 + t.x;
  out[i] = in[i];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00
}

// Coordinates packed in an int2 (block 32 x 8).
__global__ void int2Coords(const float* __restrict__ img, float* __restrict__ out, int width) {
  int2 p = make_int2(blockIdx.x * blockDim.x + threadIdx.x, blockIdx.y * blockDim.y + threadIdx.y);
  out[p.y * width + p.x] = img[p.y * width + p.x];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00
}

// Cooperative groups: thread_rank() of the block, and of a 32-wide tile.
__global__ void cgRank(const float* __restrict__ in, float* __restrict__ out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  unsigned i = blockIdx.x * block.size() + block.thread_rank();
  float v = in[i];  // expect: global load sectors=4 ideal=4 eta=1.00
  out[blockIdx.x * 256 + (threadIdx.x - tile.thread_rank()) + (31 - tile.thread_rank())] = v;  // expect: global store sectors=4 ideal=4 eta=1.00
}

int main() {
  float *a, *b;
  int* counter;
  cudaMalloc(&a, N * sizeof(float));
  cudaMalloc(&b, N * sizeof(float));
  cudaMalloc(&counter, sizeof(int));
  warpPerRow<<<N / (8 * COLS), 256>>>(a, b);
  shflBroadcastBase<<<N / (8 * COLS), 256>>>(a, b);
  appendWarp<<<N / 256, 256>>>(a, b, counter);
  uint3Copy<<<N / 256, 256>>>(a, b);
  int2Coords<<<dim3(8, 32), dim3(32, 8)>>>(a, b, 256);
  cgRank<<<N / 256, 256>>>(a, b);
  cudaDeviceSynchronize();
  return 0;
}
