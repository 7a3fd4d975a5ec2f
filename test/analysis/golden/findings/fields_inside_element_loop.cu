// A loop over the fields of an element inside a loop over the elements: each thread reads its
// element's fields one after the other, as the warp runs them. The iteration combos list the
// outer loop first (lane_evaluator.cpp, iterationCombos: the walker numbers a loop before the
// loops of its body) and a window runs along the innermost loop (lane_function.cpp), so a
// 16-byte element per thread is a short row the next iterations finish (a note, measured:
// bench/cache_reuse/h200/short_rows.csv), as the same walk without the outer loop is. Before,
// the loop over the elements was taken as the inner one and the window saw the same field of
// other elements: a warning. A 40-byte element was a warning too until session 15, when the H200
// measured 40- and 48-byte rows read per thread at 0.93x to 1.00x the coalesced time
// (bench/cache_reuse/h200/middle_rows.csv): a note now, in the element loop as alone
// (rows_of_a_few_fields.cu); the 64-byte rows of thread_walks_own_row.cu stay warnings.
#include <cuda_runtime.h>

__global__ void fieldsInElementLoop(const float* v, float* out, int n) {
  int i = threadIdx.x;
  float s = 0;
  while (i < n) {
    for (int m = 0; m < 4; m++) s += v[m + 4 * (blockIdx.x * n + i)];  // finding: uncoalesced-global-access=note
    i += blockDim.x;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void fieldsAlone(const float* v, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int m = 0; m < 4; m++) s += v[m + 4 * i];  // finding: uncoalesced-global-access=note
  out[i] = s;
}

__global__ void wideElementInLoop(const double* v, double* out, int n) {
  int i = threadIdx.x;
  double s = 0;
  while (i < n) {
    for (int m = 0; m < 5; m++) s += v[m + 5 * (blockIdx.x * n + i)];  // finding: uncoalesced-global-access=note
    i += blockDim.x;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

int main() {
  float *a, *b;
  double *c, *d;
  cudaMalloc(&a, 1 << 26);
  cudaMalloc(&b, 1 << 20);
  cudaMalloc(&c, 1 << 26);
  cudaMalloc(&d, 1 << 20);
  fieldsInElementLoop<<<256, 256>>>(a, b, 2048);
  fieldsAlone<<<256, 256>>>(a, b);
  wideElementInLoop<<<256, 256>>>(c, d, 2048);
  return 0;
}
