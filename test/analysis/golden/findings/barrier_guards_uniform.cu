// Barriers under guards that are the same for every thread of a block stay quiet, also when
// a helper computes the guard from a pointer to the kernel's parameter struct (`more(&p)`,
// interpreter_calls.cpp, registerRecordAddress); a guard on the thread index keeps its error.
#include <cuda_runtime.h>

struct Params {
  int n;
  int iter;
  const float* in;
};

__device__ bool more(const Params* p) { return blockIdx.x * 4 + p->iter < p->n; }
__device__ bool moreByRef(const Params& p) { return blockIdx.x + p.iter < p.n; }
__device__ int rowsPerBlock(int m) { return m / gridDim.x; }

__global__ void blockUniform(Params p, float* __restrict__ out, int m) {
  __shared__ float s[256];
  if (more(&p)) {
    s[threadIdx.x] = p.in[blockIdx.x * 256 + threadIdx.x];  // finding: none
    __syncthreads();  // finding: none
    out[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];  // finding: none
  }
  if (moreByRef(p)) {
    __syncthreads();  // finding: none
  }
  const Params* q = &p;
  if (q->iter < 3 && rowsPerBlock(m) > static_cast<int>(blockIdx.y)) {
    __syncthreads();  // finding: none
  }
  if (threadIdx.x < m) {
    __syncthreads();  // finding: barrier-in-divergent-code=error
  }
  __syncthreads();  // the threads that skipped the branch arrive here while the others wait in it
}

// A recursive reduction template (CloverLeaf's Reduce<T, offset>): each level syncs only while
// its offset spans more than a warp, and only the threads of the lower half go on. The last
// level sits inside a split (`threadIdx.x < 16`), but its own guard `offset > 16` is false for
// every thread: no thread reaches that barrier, so it is no divergent barrier
// (lib/analysis/src/lane_function.cpp, evaluateBarrier).
template <int offset>
__device__ void lastLevel(float* s) {
  if (offset > 16) {
    __syncthreads();  // finding: none
  }
  s[threadIdx.x] += s[threadIdx.x + offset];
}

__global__ void warpLevelTail(float* out) {
  __shared__ float s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x < 16) lastLevel<16>(s);
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

// A loop every thread leaves on the block's vote (PCL's people/src/cuda/elec.cu: a label
// propagation that repeats while any thread changed a label): `__syncthreads_or` returns the
// same value to every thread of the block, so the break, and the barriers after it, are
// uniform (lib/analysis/src/cuda_intrinsics.cpp, blockVote). Blind panel 41 judged the
// error this gave false. A vote of the warp only (`__any_sync`) is no such guarantee (a note:
// the warps that leave pass no other barrier before they exit, barrier_after_exits.cu).
__global__ void propagateUntilStable(int* labels, int n) {
  __shared__ int s[256];
  s[threadIdx.x] = labels[blockIdx.x * 256 + threadIdx.x];  // finding: none
  __syncthreads();
  for (int it = 0; it < n; ++it) {
    int changed = 0;
    const int left = s[(threadIdx.x + 255) % 256];  // finding: none
    if (left < s[threadIdx.x]) {  // finding: none
      s[threadIdx.x] = left;  // finding: none
      changed = 1;
    }
    changed = __syncthreads_or(changed);
    if (!changed) break;
    __syncthreads();  // finding: none
  }
  for (int it = 0; it < n; ++it) {
    const int mine = s[threadIdx.x];  // finding: none
    if (!__any_sync(0xffffffffu, mine > it)) break;
    __syncthreads();  // finding: barrier-in-divergent-code=note
  }
  labels[blockIdx.x * 256 + threadIdx.x] = s[threadIdx.x];  // finding: none
}

int main() {
  Params p{};
  float* out;
  cudaMalloc(&out, 64 * 256 * sizeof(float));
  blockUniform<<<64, 256>>>(p, out, 100);
  warpLevelTail<<<64, 32>>>(out);
  int* labels;
  cudaMalloc(&labels, 64 * 256 * sizeof(int));
  propagateUntilStable<<<64, 256>>>(labels, 100);
  return 0;
}
