// Threads that return from the kernel before a barrier have exited, and since compute
// capability 7.0 a barrier waits only for the threads of the block that have not: the CUDA
// C++ Programming Guide says __syncthreads() "will not succeed until reached by all
// non-exited threads in the block". llm.c's wte backward kernel (llmc/encoder.cuh) lets every
// warp but the first write its partial sums to shared memory and return, then synchronises
// warp 0 alone; blind panel 7 judged its error noise ("the hardware treats returned threads as
// arrived"), and by the guide's words it is no hazard at all. Since session 27 the same holds
// for threads that skip a barrier, run on, pass no other barrier and exit (the PTX ISA's
// `exit` releases a barrier only exiting threads hold up; blind panel 23 judged three such
// errors false): a return out of an inlined device function, a branch or a loop they leave
// make a note, not an error.
// Threads that skip a barrier and then reach another one still split the block: they arrive
// at the wrong barrier. Minimal kernels written for this test
// (lib/analysis/src/interpreter_statements.cpp, `compound`; lib/analysis/src/barrier_skippers.cpp;
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
// go on running, but they pass no other barrier before they exit, which releases it: a note
// (the CUDA C++ Programming Guide still asks for a condition the same for the whole block).
__device__ void stageFirstHalf(float* s, const float* in, int t) {
  if (t >= 128) return;
  s[t] = in[t];  // finding: none
  __syncthreads();  // finding: barrier-in-divergent-code=note
}

__global__ void returnFromCallee(float* __restrict__ out, const float* __restrict__ in) {
  __shared__ float s[256];
  s[threadIdx.x] = 0.0f;  // finding: none
  stageFirstHalf(s, in + blockIdx.x * 256, threadIdx.x);
  out[blockIdx.x * 256 + threadIdx.x] = s[threadIdx.x];  // finding: none
}

// Here they run on to the kernel's next barrier: threads 128 and up arrive there while the
// others wait at the first, so the block splits.
__device__ void stageThenShare(float* s, const float* in, int t) {
  if (t >= 128) return;
  s[t] = in[t];  // finding: none
  __syncthreads();  // finding: barrier-in-divergent-code=error
}

__global__ void returnThenBarrier(float* __restrict__ out, const float* __restrict__ in) {
  __shared__ float s[256];
  s[threadIdx.x] = 0.0f;  // finding: none
  stageThenShare(s, in + blockIdx.x * 256, threadIdx.x);
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];  // finding: none
}

// A tree reduction of the lower half at the kernel's end (CloverLeaf's Reduce, FasterTransformer's
// attention output): the upper half leaves the branch and exits.
__global__ void reduceLowerHalfLast(float* __restrict__ out, const float* __restrict__ in) {
  __shared__ float s[256];
  s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];  // finding: none
  __syncthreads();
  if (threadIdx.x < 128) {
    for (int k = 64; k > 0; k /= 2) {
      if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];  // finding: none
      __syncthreads();  // finding: barrier-in-divergent-code=note
    }
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];  // finding: none
}

// The same branch inside a loop over tiles: the upper half comes back to the loop's first
// barrier while the lower half waits in the branch.
__global__ void reduceLowerHalfPerTile(float* __restrict__ out, const float* __restrict__ in) {
  __shared__ float s[256];
  for (int tile = 0; tile < 4; ++tile) {
    s[threadIdx.x] = in[(blockIdx.x * 4 + tile) * 256 + threadIdx.x];  // finding: none
    __syncthreads();
    if (threadIdx.x < 128) {
      s[threadIdx.x] += s[threadIdx.x + 128];  // finding: none
      __syncthreads();  // finding: barrier-in-divergent-code=error
    }
    if (threadIdx.x == 0) out[blockIdx.x * 4 + tile] = s[0];  // finding: none
  }
}

// One helper, two kernels (CloverLeaf's recursive Reduce): called last, its skippers exit (a
// note); called twice, the skippers of the first call reach the second's barrier (an error).
// The place is one finding, at the worse level.
__device__ void halfSum(float* s, float* out) {
  __syncthreads();
  if (threadIdx.x < 128) {
    s[threadIdx.x] += s[threadIdx.x + 128];  // finding: none
    __syncthreads();  // finding: barrier-in-divergent-code=error
    if (threadIdx.x == 0) *out = s[0];  // finding: none
  }
}

__global__ void sumOnce(float* __restrict__ out, const float* __restrict__ in) {
  __shared__ float s[256];
  s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];  // finding: none
  halfSum(s, out + blockIdx.x);
}

__global__ void sumTwice(float* __restrict__ out, const float* __restrict__ in) {
  __shared__ float s[256];
  s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];  // finding: none
  halfSum(s, out + blockIdx.x);
  s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x] * 2;  // finding: none
  halfSum(s, out + 4096 + blockIdx.x);
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 1 << 24);
  cudaMalloc(&out, 1 << 24);
  for (int step = 0; step < 100; ++step) {
    leaderWarpSums<<<4096, 256>>>(out, in);
    boundsThenTile<<<4096, 256>>>(out, in, 4096 * 256 - 17);
    returnFromCallee<<<4096, 256>>>(out, in);
    returnThenBarrier<<<4096, 256>>>(out, in);
    reduceLowerHalfLast<<<4096, 256>>>(out, in);
    reduceLowerHalfPerTile<<<1024, 256>>>(out, in);
    sumOnce<<<4096, 256>>>(out, in);
    sumTwice<<<4096, 256>>>(out, in);
  }
  cudaDeviceSynchronize();
  return 0;
}
