// Strided access where the stride is a template parameter and the element is a 6-byte struct of
// three shorts: read .x/.y/.z with STRIDE = 3, read .y with STRIDE = 1 and widen, write whole
// elements with STRIDE = 5. Launches: 64 x 128, 128 x 256, 32 x 96 via host wrapper.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

struct S3 { short x, y, z; };

template <int STRIDE>
__global__ void readAllFields(const S3* __restrict__ in, int* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const S3* e = in + i * STRIDE;
  int a = e->x;
  int b = e->y;
  int c = e->z;
  out[i] = a + b + c;
}

template <int STRIDE, typename T>
__global__ void widenY(const S3* __restrict__ in, T* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  T v = (T)in[i * STRIDE].y;
  out[i] = v;
}

template <int STRIDE>
__global__ void writeStrided(S3* __restrict__ out, const short* __restrict__ src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  short s = src[i];
  S3 v;
  v.x = s; v.y = (short)(s + 1); v.z = (short)(s + 2);
  out[i * STRIDE] = v;
}

template <int STRIDE>
void launchWrite(S3* out, const short* src, int blocks, int threads) {
  writeStrided<STRIDE><<<blocks, threads>>>(out, src);
}

int main() {
  const int n = 1 << 18;   // S3 elements
  S3* s3;
  int* outI;
  float* outF;
  short* src;
  CK(cudaMalloc(&s3, n * sizeof(S3)));
  CK(cudaMalloc(&outI, n * sizeof(int)));
  CK(cudaMalloc(&outF, n * sizeof(float)));
  CK(cudaMalloc(&src, n * sizeof(short)));
  CK(cudaMemset(s3, 0, n * sizeof(S3)));
  CK(cudaMemset(src, 0, n * sizeof(short)));

  readAllFields<3><<<64, 128>>>(s3, outI);       // 8192 * 3 < n
  widenY<1, float><<<128, 256>>>(s3, outF);      // 32768 < n
  launchWrite<5>(s3, src, 32, 96);               // 3072 * 5 < n
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(s3)); CK(cudaFree(outI)); CK(cudaFree(outF)); CK(cudaFree(src));
  return 0;
}
