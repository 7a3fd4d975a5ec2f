// Panels 1 to 6 judged these noise (docs/precision.md, session 10): strided stores and
// same-word atomics that run only where a thread's own data says so - Rodinia myocyte's NaN
// and infinity fix-ups, particlefilter's index clamp, hybridsort's merge tail,
// streamcluster's "cheaper" test, the CUDA samples' eigenvalues "converged" flags. The figures
// assume every lane passes; how often the path runs is not known statically, so they are
// notes. The same access under a test of the thread's index, or in a loop whose bound is
// loaded, stays a warning. Minimal kernels written for this test.
#include <cuda_runtime.h>

__global__ void fixUps(float* __restrict__ state, const int* __restrict__ bins, int* __restrict__ index,
                       int rows, int maxIndex) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < 64; ++i) {
    const float v = state[tid * rows + i];  // finding: uncoalesced-global-access=warning
    if (isnan(v)) state[tid * rows + i] = 0.0f;  // finding: uncoalesced-global-access=note
    else if (isinf(v)) state[tid * rows + i] = 1.0f;  // finding: uncoalesced-global-access=note
    // The load the test reads runs for every lane; the store it guards is the note.
    if (index[tid * rows + i] >= maxIndex) index[tid * rows + i] = 0;  // finding: uncoalesced-global-access=warning uncoalesced-global-access=note
    // A test of the thread's index: every lane the figures count runs it.
    if (tid < rows) state[tid * rows + 512 + i] = 2.0f;  // finding: uncoalesced-global-access=warning
  }
  // A loaded loop bound: the body runs while it holds.
  for (int k = 0; k < bins[blockIdx.x]; ++k) index[tid * rows + 65 + k] = k;  // finding: uncoalesced-global-access=warning
}

__global__ void convergedFlag(const float* __restrict__ left, const float* __restrict__ right, int* __restrict__ out) {
  __shared__ int allConverged;
  if (threadIdx.x == 0) allConverged = 1;
  __syncthreads();
  const float l = left[blockIdx.x * blockDim.x + threadIdx.x];  // finding: none
  const float r = right[blockIdx.x * blockDim.x + threadIdx.x];  // finding: none
  if (l != r) atomicExch(&allConverged, 0);  // finding: shared-bank-conflict=note
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = allConverged;  // finding: none
}

// A condition written over two lines is quoted on one (findings_test.cpp).
__global__ void wrappedCondition(const float* __restrict__ v, float* __restrict__ out, int rows) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const float x = v[tid];  // finding: none
  if (x > 0.0f &&
      x < 1.0f)
    out[tid * rows] = x;  // finding: uncoalesced-global-access=note
}

int main() {
  float *state, *left, *right;
  int *bins, *index, *out;
  cudaMalloc(&state, 1 << 26);
  cudaMalloc(&bins, 4096);
  cudaMalloc(&index, 1 << 26);
  cudaMalloc(&left, 1 << 20);
  cudaMalloc(&right, 1 << 20);
  cudaMalloc(&out, 4096);
  for (int it = 0; it < 100; ++it) {
    // rows = 65536: `tid < rows` holds in every block of the grid (at 1024 it held in 4 of the
    // 256, which the cost counts since session 13, and the store was a sliver of the kernel).
    fixUps<<<256, 256>>>(state, bins, index, 65536, 77);
    convergedFlag<<<256, 256>>>(left, right, out);
    wrappedCondition<<<256, 256>>>(left, state, 1024);
  }
  cudaDeviceSynchronize();
  return 0;
}
