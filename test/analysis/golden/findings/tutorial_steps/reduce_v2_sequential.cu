// The next step of reduce_v1_interleaved.cu: sequential addressing, no bank conflict.
#include <cuda_runtime.h>

#define STEP_THREADS 256

__global__ void reduceStep2(const float* in, float* out) {
  __shared__ float partial[STEP_THREADS];
  const unsigned tid = threadIdx.x;
  partial[tid] = in[blockIdx.x * blockDim.x + tid];  // finding: none
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      partial[tid] += partial[tid + s];  // finding: none
    }
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];  // finding: none
}

int main() {
  const int n = 32 * 1024 * 1024;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n / STEP_THREADS * sizeof(float));
  for (int rep = 0; rep < 100; ++rep) reduceStep2<<<n / STEP_THREADS, STEP_THREADS>>>(in, out);
  cudaDeviceSynchronize();
  return 0;
}
