// blocks_3d.cu: 3D thread blocks. Warps are formed x first, then y, then z.
#include <cuda_runtime.h>

constexpr int NX = 64, NY = 64, NZ = 64;

// 32 x 2 x 2: each warp is one x-row of 32 floats.
__global__ void scale32x2x2(const float* __restrict__ in, float* __restrict__ out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  size_t idx = ((size_t)z * NY + y) * NX + x;
  out[idx] = 2.0f * in[idx];  // expect: global store sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00
}

// 4 x 4 x 8: a warp is 4 x values, 4 y rows and 2 z planes: 8 runs of 16 bytes, each inside
// one sector: 8 sectors for 4 of data.
__global__ void scale4x4x8(const float* __restrict__ in, float* __restrict__ out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  int idx = (z * NY + y) * NX + x;
  out[idx] = in[idx] + 1.0f;  // expect: global store sectors=8 ideal=4 eta=0.50 ; global load sectors=8 ideal=4 eta=0.50
}

// z fastest in memory but threadIdx.z slowest in the warp, block 8 x 4 x 4: each warp has
// threadIdx.z fixed, 4 y and 8 x values: 32 addresses NZ*4 or NY*NZ*4 bytes apart, each in
// its own sector.
__global__ void zFastestLayout(const float* __restrict__ in, float* __restrict__ out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  out[(x * NY + y) * NZ + z] = in[(x * NY + y) * NZ + z];  // expect: global store sectors=32 ideal=4 eta=0.12 ; global load sectors=32 ideal=4 eta=0.12
}

// A 3D shared tile [2][4][33], block 32 x 4 x 2: one row of 32 words per warp (1 wavefront).
// Read back as tile[tx % 2][ty][tx / 2]: two planes 4*33 = 132 words apart (bank shift 4),
// 16 consecutive words in each: the two runs share 12 banks: 2 wavefronts.
__global__ void tile3d(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float tile[2][4][33];
  int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
  int g = ((blockIdx.x * 2 + tz) * 4 + ty) * 32 + tx;
  tile[tz][ty][tx] = in[g];  // expect: shared store wavefronts=1 ideal=1 degree=1 ; global load sectors=4 ideal=4 eta=1.00
  __syncthreads();
  out[g] = tile[tx % 2][ty][tx / 2];  // expect: global store sectors=4 ideal=4 eta=1.00 ; shared load wavefronts=2 ideal=1 degree=2
}

int main() {
  float *a, *b;
  cudaMalloc(&a, NX * NY * NZ * sizeof(float));
  cudaMalloc(&b, NX * NY * NZ * sizeof(float));
  scale32x2x2<<<dim3(2, 32, 32), dim3(32, 2, 2)>>>(a, b);
  scale4x4x8<<<dim3(16, 16, 8), dim3(4, 4, 8)>>>(a, b);
  zFastestLayout<<<dim3(8, 16, 16), dim3(8, 4, 4)>>>(a, b);
  tile3d<<<1024, dim3(32, 4, 2)>>>(a, b);
  cudaDeviceSynchronize();
  return 0;
}
