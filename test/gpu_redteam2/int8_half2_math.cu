// Packed int8 and half2 arithmetic: __dp4a on int-packed char4 arrays, char4 field-wise dot of
// every other char4, an int8 row dot with one warp per row (char4 lanes over k, x shared by all
// rows), half2 __hmul2/__hadd2 elementwise, and half2 built from two __half loads at 2*i, 2*i+1.
// Launches: 1D 2048 x 256 (N = 512K), row dot 512 x 256 (4096 rows, 8 per block).
#include <cstdio>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void dp4aPacked(const int* __restrict__ a, const int* __restrict__ b, int* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int va = a[i];
  int vb = b[i];
  out[i] = __dp4a(va, vb, 0);
}

__global__ void char4EveryOther(const char4* __restrict__ a, const char4* __restrict__ b, int* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  char4 va = a[2 * i];
  char4 vb = b[2 * i + 1];
  out[i] = va.x * vb.x + va.y * vb.y + va.z * vb.z + va.w * vb.w;
}

__global__ void int8RowDot(const char4* __restrict__ M, const char4* __restrict__ x, int* __restrict__ y, int k4) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  int acc = 0;
  for (int k = lane; k < k4; k += 32) {
    char4 m = M[row * k4 + k];
    char4 v = x[k];
    acc = __dp4a(*(const int*)&m, *(const int*)&v, acc);
  }
  for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
  if (lane == 0) y[row] = acc;
}

__global__ void half2MulAdd(const __half2* __restrict__ a, const __half2* __restrict__ b,
                            const __half2* __restrict__ c, __half2* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __half2 va = a[i];
  __half2 vb = b[i];
  __half2 vc = c[i];
  out[i] = __hadd2(__hmul2(va, vb), vc);
}

__global__ void halvesToHalf2(const __half* __restrict__ h, __half2* __restrict__ out, __half2 scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __half lo = h[2 * i];
  __half hi = h[2 * i + 1];
  out[i] = __hmul2(__halves2half2(lo, hi), scale);
}

int main() {
  const int n = 1 << 19;
  const int tpb = 256;
  const int rows = 4096, k4 = 128;   // 512 int8 per row
  int *a, *b, *out, *y;
  char4 *c4a, *c4b, *M, *x;
  __half2 *ha, *hb, *hc, *hout;
  CK(cudaMalloc(&a, n * sizeof(int)));
  CK(cudaMalloc(&b, n * sizeof(int)));
  CK(cudaMalloc(&out, n * sizeof(int)));
  CK(cudaMalloc(&c4a, 2 * n * sizeof(char4)));
  CK(cudaMalloc(&c4b, 2 * n * sizeof(char4)));
  CK(cudaMalloc(&M, rows * k4 * sizeof(char4)));
  CK(cudaMalloc(&x, k4 * sizeof(char4)));
  CK(cudaMalloc(&y, rows * sizeof(int)));
  CK(cudaMalloc(&ha, n * sizeof(__half2)));
  CK(cudaMalloc(&hb, n * sizeof(__half2)));
  CK(cudaMalloc(&hc, n * sizeof(__half2)));
  CK(cudaMalloc(&hout, n * sizeof(__half2)));
  CK(cudaMemset(a, 1, n * sizeof(int)));
  CK(cudaMemset(b, 2, n * sizeof(int)));
  CK(cudaMemset(c4a, 1, 2 * n * sizeof(char4)));
  CK(cudaMemset(c4b, 3, 2 * n * sizeof(char4)));
  CK(cudaMemset(M, 1, rows * k4 * sizeof(char4)));
  CK(cudaMemset(x, 1, k4 * sizeof(char4)));
  CK(cudaMemset(ha, 0, n * sizeof(__half2)));
  CK(cudaMemset(hb, 0, n * sizeof(__half2)));
  CK(cudaMemset(hc, 0, n * sizeof(__half2)));

  dp4aPacked<<<n / tpb, tpb>>>(a, b, out);
  char4EveryOther<<<n / tpb, tpb>>>(c4a, c4b, out);
  int8RowDot<<<rows / 8, 256>>>(M, x, y, k4);
  half2MulAdd<<<n / tpb, tpb>>>(ha, hb, hc, hout);
  halvesToHalf2<<<n / tpb, tpb>>>((const __half*)ha, hout, __float2half2_rn(0.5f));
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(a)); CK(cudaFree(b)); CK(cudaFree(out)); CK(cudaFree(c4a)); CK(cudaFree(c4b));
  CK(cudaFree(M)); CK(cudaFree(x)); CK(cudaFree(y)); CK(cudaFree(ha)); CK(cudaFree(hb));
  CK(cudaFree(hc)); CK(cudaFree(hout));
  return 0;
}
