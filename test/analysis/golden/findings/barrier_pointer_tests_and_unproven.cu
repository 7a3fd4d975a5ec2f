// Barriers under guards the analysis cannot prove divergent.
// - A test of a pointer every thread holds alike (a kernel parameter passed to a helper, NULL
//   from the other kernel) is uniform over the block: no finding (interpreter_expressions.cpp,
//   `uniformPointer`). SHOC's QTC helper tests `NULL == candidate_cluster` so.
// - A record in registers advanced through a pointer by helpers (Chai's partitioner) keeps its
//   uniform fields: no finding (interpreter_calls.cpp, registerRecordAddress).
// - A guard whose value the analysis cannot evaluate for every thread (data each thread loads
//   for itself) is a note, not a warning: nothing shows that the threads disagree
//   (barrier_in_divergent_code.cpp).
// - A guard on the thread index still splits the block: an error.
// Minimal kernels written for this test.
#include <cuda_runtime.h>

__device__ int gather(int* out, const float* w) {
  __shared__ float s[256];
  s[threadIdx.x] = w[blockIdx.x * 256 + threadIdx.x];
  if (NULL == out) {
    __syncthreads();  // finding: none
    return static_cast<int>(s[0]);
  }
  __syncthreads();  // finding: none
  if (out) out[blockIdx.x * 256 + threadIdx.x] = static_cast<int>(s[255 - threadIdx.x]);
  return 0;
}

__global__ void withOutput(int* __restrict__ res, const float* __restrict__ w) { gather(res, w); }
__global__ void withoutOutput(const float* __restrict__ w) { gather(NULL, w); }

// A cursor struct in registers advanced through a pointer by helpers (Chai's partitioner):
// the writes come back to the caller's record, so the loop's guard is uniform.
struct Cursor {
  int current;
  int n;
};
__device__ int first(Cursor* c) {
  c->current = c->current + blockIdx.x;
  return c->current;
}
__device__ bool more(const Cursor* c) { return c->current < c->n; }
__device__ int next(Cursor* c) {
  c->current += gridDim.x;
  return c->current;
}

__global__ void tasks(float* __restrict__ data, int n, int start) {
  __shared__ float s[256];
  Cursor c{start, n};
  for (int t = first(&c); more(&c); t = next(&c)) {
    s[threadIdx.x] = data[t * 256 + threadIdx.x];
    __syncthreads();  // finding: none
    data[t * 256 + threadIdx.x] = s[255 - threadIdx.x];
    __syncthreads();  // finding: none
  }
  if (threadIdx.x < 128) {
    __syncthreads();  // finding: barrier-in-divergent-code=error
  }
  __syncthreads();  // the threads that skipped the branch arrive here while the others wait in it
}

// Thread 0 publishes a chunk index taken with an atomic; every thread reads it back after the
// barrier: uniform (a load from one shared address).
__global__ void queue(const int* __restrict__ q, int* __restrict__ out, int* head, int n) {
  extern __shared__ int words[];
  int* base = &words[1];
  if (threadIdx.x == 0) *base = atomicAdd(head, 256);
  __syncthreads();
  int mine = *base;
  while (mine < n) {
    if (mine + threadIdx.x < n) out[mine + threadIdx.x] = q[mine + threadIdx.x];
    if (threadIdx.x == 0) *base = atomicAdd(head, 256);
    __syncthreads();  // finding: none
    mine = *base;
  }
}

// A guard on data each thread loads for itself: the threads may disagree, or the data may be
// the same for all; the analysis cannot tell, so the finding is unproven: a note.
__global__ void flagged(const int* __restrict__ flags, float* __restrict__ data) {
  __shared__ float s[256];
  s[threadIdx.x] = data[blockIdx.x * 256 + threadIdx.x];
  if (flags[blockIdx.x * 256 + threadIdx.x] != 0) {
    __syncthreads();  // finding: barrier-in-divergent-code=note
    data[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
  }
}

int main() {
  int* res;
  float* w;
  cudaMalloc(&res, 64 * 256 * sizeof(int));
  cudaMalloc(&w, 64 * 256 * sizeof(float));
  withOutput<<<64, 256>>>(res, w);
  withoutOutput<<<64, 256>>>(w);
  tasks<<<64, 256>>>(w, 64, 0);
  queue<<<64, 256, 8>>>(res, res, res, 1 << 20);
  flagged<<<64, 256>>>(res, w);
  return 0;
}
