// partial_warps_early_exit.cu: lanes switched off by if (threadIdx.x < 16), by an early
// return, by continue/break inside a loop, and by a bound that ends inside a warp.
#include <cuda_runtime.h>

// First half-warp of every warp only (block 128): 16 floats, 2 sectors.
__global__ void halfWarps(const float* __restrict__ in, float* __restrict__ out) {
  int lane = threadIdx.x % 32;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (lane < 16) out[i] = in[i];  // expect: global store sectors=2 ideal=2 eta=1.00 ; global load sectors=2 ideal=2 eta=1.00
}

// One block of 256 threads for 100 elements: warps 0..2 full, warp 3 four lanes (1 sector),
// warps 4..7 inactive.
__global__ void earlyReturnTail(const float* __restrict__ in, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = in[i] * 2.0f;  // expect: global store sectors=3.25 ideal=3.25 eta=1.00 ; global load sectors=3.25 ideal=3.25 eta=1.00
}

// Odd threads leave: even lanes remain, 8 bytes apart: 4 sectors for 2 of data.
__global__ void oddLeave(const float* __restrict__ in, float* __restrict__ out) {
  if (threadIdx.x % 2) return;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];  // expect: global store sectors=4 ideal=2 eta=0.50 ; global load sectors=4 ideal=2 eta=0.50
}

// Early return inside a helper: the store after it runs for i < n only.
__device__ void storeIfInside(float* out, int i, int n, float v) {
  if (i >= n) {
    return;
  }
  out[i] = v;  // expect: global store sectors=3.25 ideal=3.25 eta=1.00
}

__global__ void helperEarlyReturn(const float* __restrict__ in, float* __restrict__ out, int n) {
  int i = threadIdx.x;
  float v = in[i];  // expect: global load sectors=4 ideal=4 eta=1.00
  storeIfInside(out, i, n, v);
}

// continue inside a loop: 64 threads, 48 columns; warp 1 keeps 16 lanes in every row.
__global__ void rowsContinue(const float* __restrict__ in, float* __restrict__ out, int ncols) {
  int c = threadIdx.x;
  for (int r = 0; r < 4; ++r) {
    if (c >= ncols) continue;
    out[r * 64 + c] = in[r * 64 + c];  // expect: global store sectors=3 ideal=3 eta=1.00 ; global load sectors=3 ideal=3 eta=1.00
  }
}

// break inside a loop: thread t processes rows 0 .. (t % 4), then stops.
// Row r: lanes with (t % 4) >= r active, 32 - 8r lanes spread over the warp's 128 bytes
// (4 sectors each row, ideal 4, 3, 2, 1).
__global__ void rowsBreak(const float* __restrict__ in, float* __restrict__ out) {
  int t = threadIdx.x;
  float s = 0.0f;
  for (int r = 0; r < 4; ++r) {
    if (r > t % 4) break;
    s += in[r * 32 + t];  // expect: global load sectors=4 ideal=2.5 eta=0.625
  }
  out[t] = s;  // expect: global store sectors=4 ideal=4 eta=1.00
}

// return inside a loop: threads beyond n leave at once; the others read 2 rows.
__global__ void returnInLoop(const float* __restrict__ in, float* __restrict__ out, int n) {
  int t = threadIdx.x;
  float s = 0.0f;
  for (int r = 0; r < 2; ++r) {
    if (t >= n) return;
    s += in[r * 128 + t];  // expect: global load sectors=3.25 ideal=3.25 eta=1.00
  }
  out[t] = s;  // expect: global store sectors=3.25 ideal=3.25 eta=1.00
}

int main() {
  float *a, *b;
  cudaMalloc(&a, 1 << 20);
  cudaMalloc(&b, 1 << 20);
  halfWarps<<<64, 128>>>(a, b);
  earlyReturnTail<<<1, 256>>>(a, b, 100);
  oddLeave<<<64, 256>>>(a, b);
  helperEarlyReturn<<<1, 256>>>(a, b, 100);
  rowsContinue<<<1, 64>>>(a, b, 48);
  rowsBreak<<<1, 32>>>(a, b);
  returnInLoop<<<1, 128>>>(a, b, 100);
  cudaDeviceSynchronize();
  return 0;
}
