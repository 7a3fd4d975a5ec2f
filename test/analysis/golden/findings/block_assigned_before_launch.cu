// A block (or grid) local assigned again before the launch that reads it. FasterTransformer's
// gpt_kernels.cu declares `dim3 block{512};` and launches find_context_dups<128> after `block =
// 128;` in one arm of an `if`, <256> after `block = 256;` in the other (session 27). dim3's
// assignment is a call of its assignment operator, which the host reader did not count as a
// write: the launch took the initialiser's 512, and a loop stepping by the template's 128 split
// the block's threads at its barrier, a false error. The value on the way to the launch is
// read now (reaching_assignment.cpp); a write that may or may not come first leaves the block
// unknown. Minimal kernels written for this test.
#include <cuda_runtime.h>

template <int TB>
__global__ void stepsByBlock(const int* in, int* out, int len) {
  __shared__ int first;
  const int padded = TB * ((len + TB - 1) / TB);
  for (int i = threadIdx.x; i < padded; i += TB) {
    if (threadIdx.x == 0) first = in[i];
    __syncthreads();  // finding: none
    if (first == 0) break;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = first;
}

// Stepped by 64 with a block of 64 only where `threads = 64;` reaches the launch.
__global__ void stepsBy64(const int* in, int* out, int len) {
  __shared__ int first;
  for (int i = threadIdx.x; i < 64 * ((len + 63) / 64); i += 64) {
    if (threadIdx.x == 0) first = in[i];
    __syncthreads();  // finding: none
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = first;
}

void run(const int* in, int* out, int n, int len) {
  dim3 block{512};
  dim3 grid{(n + block.x - 1) / block.x};
  grid = dim3{(unsigned)(n * 2)};
  if (len <= 128) {
    block = 128;
    stepsByBlock<128><<<grid, block>>>(in, out, len);
  } else {
    block = 256;
    stepsByBlock<256><<<grid, block>>>(in, out, len);
  }
  int threads = 512;
  threads = 64;
  stepsBy64<<<n / threads, threads>>>(in, out, len);
}

int main() {
  int *in, *out;
  cudaMalloc(&in, 1 << 22);
  cudaMalloc(&out, 1 << 22);
  run(in, out, 1 << 16, 100);
  run(in, out, 1 << 16, 200);
  cudaDeviceSynchronize();
  return 0;
}
