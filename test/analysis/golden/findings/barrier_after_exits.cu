// Threads that return from the kernel before a barrier have exited, and since compute
// capability 7.0 a barrier waits only for the threads of the block that have not: the CUDA
// C++ Programming Guide says __syncthreads() "will not succeed until reached by all
// non-exited threads in the block". llm.c's wte backward kernel (llmc/encoder.cuh) lets every
// warp but the first write its partial sums to shared memory and return, then synchronises
// warp 0 alone; blind panel 7 judged its error noise ("the hardware treats returned threads as
// arrived"), and by the guide's words it is no hazard at all. A return out of an inlined
// device function ends only that function: a barrier after it in that function, which the
// threads that returned never reach although they run on, is still an error. Minimal
// kernels written for this test (lib/analysis/src/interpreter_statements.cpp, `compound`;
// lib/analysis/src/lane_conditions.cpp, evaluateBarrier).
#include <cuda_runtime.h>

__global__ void leaderWarpSums(float* __restrict__ out, const float* __restrict__ in) {
  __shared__ float partial[256];
  const int warp = threadIdx.x / 32;
  const float v = in[blockIdx.x * 256 + threadIdx.x];  // finding: none
  if (warp != 0) {
    partial[threadIdx.x] = v;  // finding: none
    return;
  }
  __syncthreads();  // finding: none
  float sum = v;
  for (int w = 1; w < 8; ++w) sum += partial[w * 32 + threadIdx.x];  // finding: none
  out[blockIdx.x * 32 + threadIdx.x] = sum;  // finding: none
}

__global__ void boundsThenTile(float* __restrict__ out, const float* __restrict__ in, int n) {
  __shared__ float tile[256];
  const int i = blockIdx.x * 256 + threadIdx.x;
  if (i >= n) return;
  tile[threadIdx.x] = in[i];  // finding: none
  __syncthreads();  // finding: none
  out[i] = tile[255 - threadIdx.x];  // finding: none
}

// The return leaves the function, not the kernel: threads 128 and up skip the barrier and
// go on running, so the threads below 128 wait at a barrier the others never reach.
__device__ void stageFirstHalf(float* s, const float* in, int t) {
  if (t >= 128) return;
  s[t] = in[t];  // finding: none
  __syncthreads();  // finding: barrier-in-divergent-code=error
}

__global__ void returnFromCallee(float* __restrict__ out, const float* __restrict__ in) {
  __shared__ float s[256];
  s[threadIdx.x] = 0.0f;  // finding: none
  stageFirstHalf(s, in + blockIdx.x * 256, threadIdx.x);
  out[blockIdx.x * 256 + threadIdx.x] = s[threadIdx.x];  // finding: none
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 1 << 24);
  cudaMalloc(&out, 1 << 24);
  for (int step = 0; step < 100; ++step) {
    leaderWarpSums<<<4096, 256>>>(out, in);
    boundsThenTile<<<4096, 256>>>(out, in, 4096 * 256 - 17);
    returnFromCallee<<<4096, 256>>>(out, in);
  }
  cudaDeviceSynchronize();
  return 0;
}
