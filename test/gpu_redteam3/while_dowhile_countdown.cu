// while and do-while loops over memory with runtime strides, and loops counting down
// (for i = n-1; i >= 0; --i) indexing with n-1-i, both across threads and within a thread's chunk.
// Launches: 128 x 256, 64 x 128, 32 x 256, 256 x 128, 16 x 64.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void whileGridStride(const float* __restrict__ in, float* __restrict__ out, int n, int stride) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int i = t;
  float s = 0.0f;
  while (i < n) {
    s += in[i];
    i += stride;
  }
  out[t] = s;
}

__global__ void doWhileChunk(const float* __restrict__ in, float* __restrict__ out, int chunk) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int i = t * chunk;
  float s = 0.0f;
  do {
    s += in[i];
    ++i;
  } while (i % chunk != 0);
  out[t] = s;
}

__global__ void countDownSlices(const float* __restrict__ in, float* __restrict__ out, int slices) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int total = gridDim.x * blockDim.x;
  float s = 0.0f;
  for (int i = slices - 1; i >= 0; --i) {
    s += in[(slices - 1 - i) * total + t];
    out[i * total + t] = s;
  }
}

__global__ void countDownOwnRow(const float* __restrict__ in, float* __restrict__ out, int len) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int i = len - 1; i >= 0; --i) {
    s += in[t * len + (len - 1 - i)];
  }
  out[t] = s;
}

__global__ void doWhileDown(const float* __restrict__ in, float* __restrict__ out, int cnt, int stride) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int k = cnt;
  float s = 0.0f;
  do {
    --k;
    s += in[k * stride + t];
  } while (k > 0);
  out[t] = s;
}

int main() {
  const int n = 1 << 20;
  float *in, *out;
  CK(cudaMalloc(&in, n * sizeof(float)));
  CK(cudaMalloc(&out, n * sizeof(float)));
  CK(cudaMemset(in, 0, n * sizeof(float)));

  int stride = 128 * 256;
  whileGridStride<<<128, 256>>>(in, out, n, stride);
  int chunk = 8;
  doWhileChunk<<<64, 128>>>(in, out, chunk);          // 8192 threads * 8 = 65536
  countDownSlices<<<32, 256>>>(in, out, 16);         // 8192 * 16 = 131072
  countDownOwnRow<<<256, 128>>>(in, out, 32);         // 32768 * 32 = n
  doWhileDown<<<16, 64>>>(in, out, 10, 1024);         // 9 * 1024 + 1024 <= n
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  CK(cudaFree(in)); CK(cudaFree(out));
  return 0;
}
