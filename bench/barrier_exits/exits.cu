// Whether threads that have returned from the kernel hold up a later __syncthreads() on the
// H200 (sm_90), and what compute-sanitizer's synccheck says of it, against barriers that live
// threads skip. Each case is one kernel, run in its own process (`exits CASE`) so that a hang
// shows as a timeout of that process alone. Prints `CASE ok SUM` when the kernel finished and
// its result is the one every thread reaching every barrier would give, `CASE wrong ...` when
// it finished with another result. bench/barrier_exits_h200.sh runs every case, with and
// without synccheck; docs/findings.md ("Barriers") reads the results.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

constexpr int kBlock = 256;
constexpr int kBlocks = 1024;

// Warps 1..7 write their values and return; warp 0 waits at the barrier and adds them
// (llm.c's wte backward kernel).
__global__ void leaderWarpAfterExits(float* out, const float* in) {
  __shared__ float partial[kBlock];
  const int warp = threadIdx.x / 32;
  const float v = in[blockIdx.x * kBlock + threadIdx.x];
  if (warp != 0) {
    partial[threadIdx.x] = v;
    return;
  }
  __syncthreads();
  float sum = v;
  for (int w = 1; w < kBlock / 32; ++w) sum += partial[w * 32 + threadIdx.x];
  out[blockIdx.x * 32 + threadIdx.x] = sum;
}

// Threads 100 and up return (warp 3 keeps lanes 0..3 alive, warps 4..7 exit whole); the rest
// stage a tile, synchronise and read a neighbour's element.
__global__ void boundsExitThenBarrier(float* out, const float* in) {
  __shared__ float tile[kBlock];
  if (threadIdx.x >= 100) return;
  tile[threadIdx.x] = in[blockIdx.x * kBlock + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * kBlock + threadIdx.x] = tile[99 - threadIdx.x];
}

// Control: threads 100 and up live on but skip the barrier inside the branch.
__global__ void barrierInsideBranch(float* out, const float* in) {
  __shared__ float tile[kBlock];
  if (threadIdx.x < 100) {
    tile[threadIdx.x] = in[blockIdx.x * kBlock + threadIdx.x];
    __syncthreads();
    out[blockIdx.x * kBlock + threadIdx.x] = tile[99 - threadIdx.x];
  }
}

// Control: the return leaves a device function, not the kernel; the barrier after it in the
// function is skipped by threads that live on.
__device__ __noinline__ void stageFirstHundred(float* tile, const float* in, float* out) {
  if (threadIdx.x >= 100) return;
  tile[threadIdx.x] = in[blockIdx.x * kBlock + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * kBlock + threadIdx.x] = tile[99 - threadIdx.x];
}
__global__ void returnFromCalleeThenLive(float* out, const float* in) {
  __shared__ float tile[kBlock];
  stageFirstHundred(tile, in, out);
  out[kBlocks * kBlock + blockIdx.x * kBlock + threadIdx.x] = 1.0f;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: exits leader|bounds|branch|callee\n");
    return 2;
  }
  const char* which = argv[1];
  const int n = kBlocks * kBlock;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, 2 * n * sizeof(float));
  float* host = static_cast<float*>(malloc(2 * n * sizeof(float)));
  for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i % 1000);
  cudaMemcpy(in, host, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(out, 0, 2 * n * sizeof(float));
  if (!strcmp(which, "leader")) leaderWarpAfterExits<<<kBlocks, kBlock>>>(out, in);
  else if (!strcmp(which, "bounds")) boundsExitThenBarrier<<<kBlocks, kBlock>>>(out, in);
  else if (!strcmp(which, "branch")) barrierInsideBranch<<<kBlocks, kBlock>>>(out, in);
  else if (!strcmp(which, "callee")) returnFromCalleeThenLive<<<kBlocks, kBlock>>>(out, in);
  else return 2;
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("%s error %s\n", which, cudaGetErrorString(e));
    return 1;
  }
  cudaMemcpy(host, out, 2 * n * sizeof(float), cudaMemcpyDeviceToHost);
  // The result every thread reaching every barrier gives.
  long wrong = 0;
  double sum = 0;
  for (int b = 0; b < kBlocks; ++b) {
    if (!strcmp(which, "leader")) {
      for (int t = 0; t < 32; ++t) {
        float want = 0;
        for (int w = 0; w < kBlock / 32; ++w) want += static_cast<float>((b * kBlock + w * 32 + t) % 1000);
        wrong += host[b * 32 + t] != want;
        sum += host[b * 32 + t];
      }
    } else {
      for (int t = 0; t < 100; ++t) {
        const float want = static_cast<float>((b * kBlock + 99 - t) % 1000);
        wrong += host[b * kBlock + t] != want;
        sum += host[b * kBlock + t];
      }
    }
  }
  printf("%s %s %ld wrong of %d, sum %.0f\n", which, wrong ? "wrong" : "ok", wrong,
         kBlocks * (!strcmp(which, "leader") ? 32 : 100), sum);
  return 0;
}
