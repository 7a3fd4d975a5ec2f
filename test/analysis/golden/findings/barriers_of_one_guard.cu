// The barriers one thread-dependent guard splits are one finding, at the first, whose note
// names the others (lib/report/src/barrier_groups.cpp): a branch around a kernel's barriers
// (three barriers under one `if`), a loop whose trip count differs between threads with
// several barriers in its body. Each guard keeps its own. A split proven only for a guessed
// block is a warning. An early `return` before barriers splits nothing: the threads that take
// it have exited, and a barrier waits only for those that have not
// (findings/barrier_after_exits.cu); a branch whose skippers reach no barrier before they exit
// is a note there, so the kernels here end with a barrier every thread reaches.
#include <cuda_runtime.h>

__global__ void branchAroundBarriers(const double* in, double* out, int n) {
  __shared__ double s[256];
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j <= n - 2) {
    s[threadIdx.x] = in[j];
    __syncthreads();  // finding: barrier-in-divergent-code=error
    s[threadIdx.x] += s[(threadIdx.x + 1) % 256];
    __syncthreads();  // finding: none
    s[threadIdx.x] *= 2.0;
    __syncthreads();  // finding: none
    out[j] = s[255 - threadIdx.x];
  }
  __syncthreads();  // the threads that skipped the branch arrive here while the others wait in it
}

__global__ void loopAndGuard(const float* in, float* out, int nx) {
  __shared__ float t[128];
  int i = threadIdx.x;
  while (i < nx) {
    t[threadIdx.x] = in[blockIdx.x * nx + i];
    __syncthreads();  // finding: barrier-in-divergent-code=error
    out[blockIdx.x * nx + i] = t[127 - threadIdx.x];
    __syncthreads();  // finding: none
    i += blockDim.x;
  }
  if (threadIdx.x < 64) {
    __syncthreads();  // finding: barrier-in-divergent-code=error
  }
  __syncthreads();  // the threads that skipped the branch arrive here while the others wait in it
}

// No launch: the block is a guess (256 threads), and whether `j > n` splits a block depends on
// the block as much as on the guard (a block of 100 threads or fewer would not split): a
// warning that says so, not an error (rules/barrier_in_divergent_code.cpp).
__global__ void unlaunchedGuessedBlock(const float* in, float* out, int n) {
  __shared__ float s[1024];
  int j = threadIdx.x;
  if (j < 100) {
    s[j] = in[blockIdx.x * 100 + j];
    __syncthreads();  // finding: barrier-in-divergent-code=warning
    out[blockIdx.x * 100 + j] = s[99 - j];
  }
  __syncthreads();  // the threads that skipped the branch arrive here while the others wait in it
}

int main() {
  double *a, *b;
  float *c, *d;
  cudaMalloc(&a, 1 << 20);
  cudaMalloc(&b, 1 << 20);
  cudaMalloc(&c, 1 << 20);
  cudaMalloc(&d, 1 << 20);
  branchAroundBarriers<<<1, 256>>>(a, b, 200);
  loopAndGuard<<<100, 128>>>(c, d, 1000);
  return 0;
}
