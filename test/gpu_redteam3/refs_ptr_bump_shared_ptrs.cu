// Accesses through references (float& r = a[2*i]; r += 1), pointer aliases bumped inside loops
// (p += blockDim.x, and ++p within a thread's chunk), and an array of row pointers kept in shared
// memory (rows[warp][lane] and rows[lane & 7][...]). Launches: 128 x 256, 64 x 128, 256 x 64, 32 x 256.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void refUpdate(float* __restrict__ a, float* __restrict__ b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float& r = a[2 * i];
  r += 1.0f;
  float& q = b[i];
  q = q * 2.0f + r;
}

__global__ void bumpByBlock(const float* __restrict__ in, float* __restrict__ out) {
  const float* p = in + blockIdx.x * blockDim.x * 4 + threadIdx.x;
  float s = 0.0f;
  for (int k = 0; k < 4; ++k) {
    s += *p;
    p += blockDim.x;
  }
  float* q = out + blockIdx.x * blockDim.x;
  q[threadIdx.x] = s;
}

__global__ void bumpByOne(const float* __restrict__ in, float* __restrict__ out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const float* p = in + t * 8;
  float s = 0.0f;
  for (int k = 0; k < 8; ++k) {
    s += *p;
    ++p;
  }
  out[t] = s;
}

__global__ void sharedRowPtrs(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ const float* rows[8];
  if (threadIdx.x < 8) rows[threadIdx.x] = in + (blockIdx.x * 8 + threadIdx.x) * 256;
  __syncthreads();
  int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const float* r = rows[warp];
  float a = r[lane];
  const float* r2 = rows[lane & 7];
  float b = r2[(threadIdx.x >> 3) + 32];
  out[blockIdx.x * blockDim.x + threadIdx.x] = a + b;
}

int main() {
  const int n = 1 << 20;
  float *a, *b;
  CK(cudaMalloc(&a, n * sizeof(float)));
  CK(cudaMalloc(&b, n * sizeof(float)));
  CK(cudaMemset(a, 0, n * sizeof(float)));
  CK(cudaMemset(b, 0, n * sizeof(float)));

  refUpdate<<<128, 256>>>(a, b);       // 2 * 32768 < n
  bumpByBlock<<<64, 128>>>(a, b);      // 64 * 512 floats
  bumpByOne<<<256, 64>>>(a, b);        // 16384 * 8 = 131072
  sharedRowPtrs<<<32, 256>>>(a, b);    // rows of 256: 32 * 8 * 256 = 65536; col <= 31 + 32
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(a)); CK(cudaFree(b));
  return 0;
}
