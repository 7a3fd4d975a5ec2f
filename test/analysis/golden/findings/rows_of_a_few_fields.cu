// A thread reading a row of its own of a few fields, lanes a row apart (thread_walks_own_row.cu
// has the short and long rows): measured on the H200 (session 15,
// bench/cache_reuse/h200/middle_rows.csv) rows of 40 and 48 bytes of floats read per thread took
// 0.93x to 1.00x the time of the same bytes read coalesced, 5 doubles (40 bytes) 0.96x to 0.99x,
// while 16 floats (64 bytes) took 1.8x to 1.9x (short_rows.csv). NPB's solvers keep 5 doubles
// per grid point (u[k][j][i][m]) and walk them per thread with lanes on i: panel 13 judged those
// loads noise ("each thread re-reads its own 40-byte row, so L1 serves it"). So the 40-byte row
// is a note, the 64-byte one stays a warning. Written 5 doubles at a time it stays a warning
// (1.05x to 2.8x). Minimal kernels written for this test.
#include <cuda_runtime.h>

__global__ void fiveDoubleRows(const double* __restrict__ u, double* __restrict__ out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  double sum = 0;
  for (int m = 0; m < 5; ++m) sum += u[i * 5 + m];  // finding: uncoalesced-global-access=note
  out[i] = sum;  // finding: none
}

__global__ void fiveDoubleRowStores(const double* __restrict__ in, double* __restrict__ u) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const double v = in[i];  // finding: none
  for (int m = 0; m < 5; ++m) u[i * 5 + m] = v * m;  // finding: uncoalesced-global-access=warning
}

__global__ void sixteenFloatRows(const float* __restrict__ in, float* __restrict__ out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0;
  for (int x = 0; x < 16; ++x) sum += in[i * 16 + x];  // finding: uncoalesced-global-access=warning
  out[i] = sum;  // finding: none
}

int main() {
  double *u, *sums;
  float *in, *out;
  cudaMalloc(&u, 5 * 65536 * sizeof(double));
  cudaMalloc(&sums, 65536 * sizeof(double));
  cudaMalloc(&in, 16 * 65536 * sizeof(float));
  cudaMalloc(&out, 65536 * sizeof(float));
  for (int step = 0; step < 100; ++step) {
    fiveDoubleRowStores<<<256, 256>>>(sums, u);
    fiveDoubleRows<<<256, 256>>>(u, sums);
    sixteenFloatRows<<<256, 256>>>(in, out);
  }
  cudaDeviceSynchronize();
  return 0;
}
