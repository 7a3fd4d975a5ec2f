// A shared array each thread uses as a variable of its own: every store is at the thread's own
// slot, `sec[threadIdx.x]`, of a value the whole block shares (the block's index, a step of the
// grid), so every slot holds that one value and a load of the own slot is the same in every
// lane (lib/analysis/src/interpreter_memory.cpp, InterpreterState::uniformSlotArrays).
// gpuNUFFT's convolution kernels keep their sector index so: blind panel 34 judged false the
// "gathers through loaded indices" at `sectors[sec[threadIdx.x]]` and the barrier under
// `while (sec[threadIdx.x] < N)` called divergent. A slot filled with per-thread data stays a
// gather. Minimal kernels written for this test.
#include <cuda_runtime.h>

#define SLOTS 64

__device__ void work(int* sec, const int* sectors, const float* crds, float* out, const int* centers) {
  int c = centers[sec[threadIdx.x] * 3 + 1];  // finding: none
  int cnt = sectors[sec[threadIdx.x]] + threadIdx.x;  // finding: none
  out[cnt] = crds[cnt] + c;  // finding: none
}

__global__ void sectorLoop(const int* sectors, const float* crds, float* out, const int* centers, int n) {
  __shared__ int sec[SLOTS];
  sec[threadIdx.x] = blockIdx.x;
  while (sec[threadIdx.x] < n) {
    work(sec, sectors, crds, out, centers);
    __syncthreads();  // finding: none
    sec[threadIdx.x] = sec[threadIdx.x] + gridDim.x;
  }
}

__global__ void slotOfData(const int* sectors, const float* crds, float* out) {
  __shared__ int sec[SLOTS];
  sec[threadIdx.x] = sectors[blockIdx.x * SLOTS + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * SLOTS + threadIdx.x] = crds[sec[threadIdx.x] * 64];  // finding: scattered-indirect-access=note
}

// The slot given per-thread data at the end of each round: from the second round on, the
// loop's bound and the barrier under it depend on the thread.
__global__ void slotRefilled(const int* next, float* out, int n) {
  __shared__ int sec[SLOTS];
  sec[threadIdx.x] = blockIdx.x;
  while (sec[threadIdx.x] < n) {
    out[blockIdx.x * SLOTS + threadIdx.x] = 1.f;
    __syncthreads();  // finding: barrier-in-divergent-code=note
    sec[threadIdx.x] = next[sec[threadIdx.x] * SLOTS + threadIdx.x];  // finding: scattered-indirect-access=note
  }
}

int main() {
  float *c, *o;
  int *s, *ce;
  cudaMalloc(&c, 1 << 26);
  cudaMalloc(&o, 1 << 26);
  cudaMalloc(&s, 1 << 20);
  cudaMalloc(&ce, 1 << 20);
  for (int i = 0; i < 100; ++i) {
    sectorLoop<<<1024, SLOTS>>>(s, c, o, ce, 100000);
    slotOfData<<<1024, SLOTS>>>(s, c, o);
    slotRefilled<<<1024, SLOTS>>>(s, o, 100000);
  }
  cudaDeviceSynchronize();
  return 0;
}
