// Complex arithmetic: cuFloatComplex multiply-add D = A*B + C, every other complex element,
// re/im read through a float* at 2*i and 2*i+1, cuDoubleComplex fma (16-byte elements), and
// a batched pointwise X[b][k] * conj(Y[k]) with blockIdx.y as the batch (Y shared by batches).
// Launches: 1D 2048 x 256 (N = 512K complex), batched grid dim3(64, 16) x 128.
#include <cstdio>
#include <cuda_runtime.h>
#include <cuComplex.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void cmulAdd(const cuFloatComplex* __restrict__ A, const cuFloatComplex* __restrict__ B,
                        const cuFloatComplex* __restrict__ C, cuFloatComplex* __restrict__ D) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  cuFloatComplex a = A[i];
  cuFloatComplex b = B[i];
  cuFloatComplex c = C[i];
  D[i] = cuCaddf(cuCmulf(a, b), c);
}

__global__ void cmulEveryOther(const float2* __restrict__ A, float2* __restrict__ out, float2 w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float2 a = A[2 * i];
  out[i] = make_float2(a.x * w.x - a.y * w.y, a.x * w.y + a.y * w.x);
}

__global__ void magnitudeSplit(const float* __restrict__ interleaved, float* __restrict__ mag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float re = interleaved[2 * i];
  float im = interleaved[2 * i + 1];
  mag[i] = sqrtf(re * re + im * im);
}

__global__ void zfma(const cuDoubleComplex* __restrict__ A, const cuDoubleComplex* __restrict__ B,
                     cuDoubleComplex* __restrict__ C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  cuDoubleComplex a = A[i];
  cuDoubleComplex b = B[i];
  cuDoubleComplex c = C[i];
  C[i] = cuCfma(a, b, c);
}

__global__ void batchedConjMul(const cuFloatComplex* __restrict__ X, const cuFloatComplex* __restrict__ Y,
                               cuFloatComplex* __restrict__ Z, int len) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  cuFloatComplex x = X[b * len + k];
  cuFloatComplex y = Y[k];
  Z[b * len + k] = cuCmulf(x, cuConjf(y));
}

int main() {
  const int n = 1 << 19;
  const int tpb = 256;
  const int len = 64 * 128, batches = 16;
  cuFloatComplex *A, *B, *C, *D, *X, *Y, *Z;
  cuDoubleComplex *ZA, *ZB, *ZC;
  CK(cudaMalloc(&A, 2 * n * sizeof(cuFloatComplex)));
  CK(cudaMalloc(&B, n * sizeof(cuFloatComplex)));
  CK(cudaMalloc(&C, n * sizeof(cuFloatComplex)));
  CK(cudaMalloc(&D, n * sizeof(cuFloatComplex)));
  CK(cudaMalloc(&ZA, n * sizeof(cuDoubleComplex)));
  CK(cudaMalloc(&ZB, n * sizeof(cuDoubleComplex)));
  CK(cudaMalloc(&ZC, n * sizeof(cuDoubleComplex)));
  CK(cudaMalloc(&X, batches * len * sizeof(cuFloatComplex)));
  CK(cudaMalloc(&Y, len * sizeof(cuFloatComplex)));
  CK(cudaMalloc(&Z, batches * len * sizeof(cuFloatComplex)));
  CK(cudaMemset(A, 0, 2 * n * sizeof(cuFloatComplex)));
  CK(cudaMemset(B, 0, n * sizeof(cuFloatComplex)));
  CK(cudaMemset(C, 0, n * sizeof(cuFloatComplex)));
  CK(cudaMemset(ZA, 0, n * sizeof(cuDoubleComplex)));
  CK(cudaMemset(ZB, 0, n * sizeof(cuDoubleComplex)));
  CK(cudaMemset(ZC, 0, n * sizeof(cuDoubleComplex)));
  CK(cudaMemset(X, 0, batches * len * sizeof(cuFloatComplex)));
  CK(cudaMemset(Y, 0, len * sizeof(cuFloatComplex)));

  cmulAdd<<<n / tpb, tpb>>>(A, B, C, D);
  cmulEveryOther<<<n / tpb, tpb>>>(A, D, make_float2(0.5f, 0.25f));
  magnitudeSplit<<<n / tpb, tpb>>>((const float*)B, (float*)C);
  zfma<<<n / tpb, tpb>>>(ZA, ZB, ZC);
  dim3 grid(len / 128, batches);
  batchedConjMul<<<grid, 128>>>(X, Y, Z, len);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(A)); CK(cudaFree(B)); CK(cudaFree(C)); CK(cudaFree(D)); CK(cudaFree(ZA));
  CK(cudaFree(ZB)); CK(cudaFree(ZC)); CK(cudaFree(X)); CK(cudaFree(Y)); CK(cudaFree(Z));
  return 0;
}
