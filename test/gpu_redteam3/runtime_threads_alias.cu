// Block size chosen by a variable in main (threads = 128; if (n > 1000) threads = 256), a host
// wrapper deriving the grid from n and threads, aliasing pointers into one buffer
// (out = in + 1: a misaligned store; in-place scale through two names), and __restrict__ halves.
// Launches: (n / 256) x 256, 512 x 128 (wrapper), 64 x 256, 1024 x 64.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void shiftCopy(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = in[i];
    out[i] = v * 2.0f;
  }
}

__global__ void scaleTwoNames(float* a, const float* b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = b[i + 32];
  a[i] = x * 0.5f;
}

__global__ void halvesRestrict(const float* __restrict__ lo, float* __restrict__ hi, int half) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = lo[i];
  hi[i - half + half] = v;
  float w = hi[(i + 1) % half];
  hi[i] = v + w;
}

__global__ void evenOddAlias(float* buf, int half) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float* odd = buf + 1;
  float e = buf[2 * i];
  odd[2 * i] = e;
  float* top = buf + half;
  top[i] += e;
}

void launchScale(float* p, int n, int threads) {
  int blocks = n / threads;
  scaleTwoNames<<<blocks, threads>>>(p, p);
}

int main() {
  const int n = 1 << 16;
  float* buf;
  CK(cudaMalloc(&buf, 2 * n * sizeof(float)));
  CK(cudaMemset(buf, 0, 2 * n * sizeof(float)));

  int threads = 128;
  if (n > 1000) threads = 256;
  int blocks = (n - 1 + threads - 1) / threads;
  shiftCopy<<<blocks, threads>>>(buf, buf + 1, n - 1);   // out = in + 1
  launchScale(buf, n, 128);                              // reads up to n - 1 + 32 < 2n
  halvesRestrict<<<64, 256>>>(buf, buf + n, n / 4);      // i < 16384 = half
  evenOddAlias<<<1024, 64>>>(buf, n);                    // 2 * 65535 + 1 < 2n; top[i] < 2n
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(buf));
  return 0;
}
