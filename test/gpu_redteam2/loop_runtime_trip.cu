// Loops with runtime trip counts whose index mixes block/thread ids with the loop counter:
// in[k * gridDim.x * blockDim.x + i] forwards and backwards (with a store), a row-per-thread loop
// m[row * cols + k], a chunk-per-thread loop in[i * chunk + k], and a while loop reading two
// elements per trip (k and k + gridDim.x * blockDim.x). Launches: 256 x 256, 32 x 128, 64 x 256, 128 x 256.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void sliceSum(const float* __restrict__ in, float* __restrict__ out, int slices) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int k = 0; k < slices; ++k) s += in[k * gridDim.x * blockDim.x + i];
  out[i] = s;
}

__global__ void reverseSlices(const float* __restrict__ in, float* __restrict__ out, int slices) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int total = gridDim.x * blockDim.x;
  float carry = 0.0f;
  for (int k = slices - 1; k >= 0; --k) {
    carry += in[k * total + i];
    out[k * total + i] = carry;
  }
}

__global__ void rowPerThread(const float* __restrict__ m, float* __restrict__ out, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int k = 0; k < cols; ++k) s += m[row * cols + k];
  out[row] = s;
}

__global__ void chunkPerThread(const float* __restrict__ in, float* __restrict__ out, int chunk) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int k = 0; k < chunk; ++k) s += in[i * chunk + k];
  out[i] = s;
}

__global__ void whileTwoPerTrip(const float* __restrict__ in, float* __restrict__ out, int n) {
  int total = gridDim.x * blockDim.x;
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  while (k + total < n) {
    s += in[k];
    s += in[k + total];
    k += 2 * total;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

int main() {
  const int n = 1 << 20;
  int slices = 16;       // 256 * 256 * 16 = n
  int cols = 256;        // 32 * 128 rows of 256 = n
  int chunk = 64;        // 64 * 256 threads * 64 = n
  float *in, *out;
  CK(cudaMalloc(&in, n * sizeof(float)));
  CK(cudaMalloc(&out, n * sizeof(float)));
  CK(cudaMemset(in, 0, n * sizeof(float)));

  sliceSum<<<256, 256>>>(in, out, slices);
  reverseSlices<<<256, 256>>>(in, out, slices);
  rowPerThread<<<32, 128>>>(in, out, cols);
  chunkPerThread<<<64, 256>>>(in, out, chunk);
  whileTwoPerTrip<<<128, 256>>>(in, out, n);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(in)); CK(cudaFree(out));
  return 0;
}
