// record_copy_lines.cu: whole-record copies written over two lines. nvcc copies the record
// where it reads the right side, so the stores carry the second line with the loads
// (cudaTensorCoreGemm's int4 tile streaming: STS.128 and STG.128 on the right side's line,
// measured on the H200). One int4 per lane: 512 bytes, 16 sectors; shared 128-bit accesses
// go by quarter warps: 4 wavefronts.
#include <cuda_runtime.h>

__global__ void streamTiles(const float* __restrict__ src, float* __restrict__ dst) {
  __shared__ float tile[8 * 128];
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  float* s = tile + warp * 128;
  const float* g = src + blockIdx.x * 1024 + warp * 128;
  *((int4*)s + lane) =
      *((const int4*)g + lane);  // expect: global load sectors=16 ideal=16 eta=1.00 ; shared store wavefronts=4 ideal=4 degree=1
  __syncthreads();
  float* d = dst + blockIdx.x * 1024 + warp * 128;
  *((int4*)d + lane) =
      *((int4*)s + lane);  // expect: shared load wavefronts=4 ideal=4 degree=1 ; global store sectors=16 ideal=16 eta=1.00
  // On one line the store keeps its own column (and the line is the same).
  *((int4*)d + lane) = *((const int4*)g + lane);  // expect: global store sectors=16 ideal=16 eta=1.00 ; global load sectors=16 ideal=16 eta=1.00
}

int main() {
  float *src, *dst;
  cudaMalloc(&src, 64 * 1024 * sizeof(float));
  cudaMalloc(&dst, 64 * 1024 * sizeof(float));
  streamTiles<<<64, 256>>>(src, dst);
  cudaDeviceSynchronize();
  return 0;
}
