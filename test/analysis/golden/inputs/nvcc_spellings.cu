// nvcc_spellings.cu: code nvcc accepts and Clang alone would not parse. An alignment
// specifier after the memory-space keyword (`__shared__ alignas(...)`, the samples'
// globalToShmemAsyncCopy) is read as if written first (builtin_files.cpp, alignasFirst);
// without that the kernel fails with "an attribute list cannot appear here".
#include <cuda_runtime.h>

__global__ void alignedTiles(const float4* __restrict__ in, float* __restrict__ out) {
  __shared__ alignas(alignof(float4)) float tile[4][256];
  __shared__
      alignas(16) float spare[256];
  const int t = threadIdx.x;
  reinterpret_cast<float4*>(tile[0])[t] = in[blockIdx.x * 256 + t];  // expect: shared store wavefronts=4 ideal=4 degree=1 ; global load sectors=16 ideal=16 eta=1.00
  spare[t] = tile[1][t];  // expect: shared store wavefronts=1 ideal=1 degree=1 ; shared load wavefronts=1 ideal=1 degree=1
  __syncthreads();
  out[blockIdx.x * 256 + t] = spare[255 - t] + tile[0][4 * t];  // expect: global store sectors=4 ideal=4 eta=1.00 ; shared load wavefronts=1 ideal=1 degree=1 ; shared load wavefronts=4 ideal=1 degree=4
}

int main() {
  float4* in;
  float* out;
  cudaMalloc(&in, 64 * 256 * sizeof(float4));
  cudaMalloc(&out, 64 * 256 * sizeof(float));
  alignedTiles<<<64, 256>>>(in, out);
  cudaDeviceSynchronize();
  return 0;
}
