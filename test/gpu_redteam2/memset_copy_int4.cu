// Byte-buffer memset/copy moving 16 B per thread through int4/uint4 casts of char*: packed int4
// memset, grid-stride int4 copy, int4 copy from char* + 64, 8-byte uint2 copy, byte-wise tail.
// 16 MB + 100 B buffer; host wrapper takes the block size (256). Launches: memset 4097 x 256,
// grid-stride 1024 x 256, shifted 4097 x 256, uint2 8192 x 128 (first half only), tail 1 x 128.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void memsetInt4(char* dst, int value, size_t nbytes) {
  size_t off = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * 16;
  if (off + 16 <= nbytes) {
    int4 v = make_int4(value, value, value, value);
    *reinterpret_cast<int4*>(dst + off) = v;
  }
}

__global__ void copyInt4GridStride(const char* __restrict__ src, char* __restrict__ dst, size_t n16) {
  const int4* s = reinterpret_cast<const int4*>(src);
  int4* d = reinterpret_cast<int4*>(dst);
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n16; i += (size_t)gridDim.x * blockDim.x) {
    int4 v = s[i];
    d[i] = v;
  }
}

__global__ void copyInt4Shifted(const char* __restrict__ src, char* __restrict__ dst, size_t n16) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n16) {
    uint4 v = reinterpret_cast<const uint4*>(src + 64)[i];
    reinterpret_cast<uint4*>(dst)[i] = v;
  }
}

__global__ void copyUint2(const char* __restrict__ src, char* __restrict__ dst, size_t n8) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n8) {
    uint2 v = *reinterpret_cast<const uint2*>(src + i * 8);
    *reinterpret_cast<uint2*>(dst + i * 8) = v;
  }
}

__global__ void tailBytes(const char* __restrict__ src, char* __restrict__ dst, size_t start, size_t nbytes) {
  size_t i = start + threadIdx.x;
  if (i < nbytes) dst[i] = src[i];
}

void launchAll(const char* src, char* dst, size_t nbytes, int threads) {
  size_t n16 = nbytes / 16;
  memsetInt4<<<(unsigned)((n16 + threads - 1) / threads), threads>>>(dst, 0x01010101, nbytes);
  copyInt4GridStride<<<1024, threads>>>(src, dst, n16);
  copyInt4Shifted<<<(unsigned)((n16 - 4 + threads - 1) / threads), threads>>>(src, dst, n16 - 4);
  copyUint2<<<8192, threads / 2>>>(src, dst, nbytes / 8);
  tailBytes<<<1, 128>>>(src, dst, n16 * 16, nbytes);
}

int main() {
  const size_t nbytes = (16u << 20) + 100;
  char *src, *dst;
  CK(cudaMalloc(&src, nbytes));
  CK(cudaMalloc(&dst, nbytes));
  CK(cudaMemset(src, 3, nbytes));

  launchAll(src, dst, nbytes, 256);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(src)); CK(cudaFree(dst));
  return 0;
}
