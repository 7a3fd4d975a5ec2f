// constant_and_local_beside_global.cu: a `__constant__` table and a thread's own array read
// under the same guards as a global load. Neither has figures in the model (no sectors, no
// wavefronts, no share of the kernel's traffic), so their lanes are not evaluated
// (lib/analysis/src/lane_function.h, lanesEvaluated). Until then each was evaluated and, having
// no figures, looked idle: the search for values of the guards' scalars under which it runs
// found none, and the answer, cached per set of guards, was then given to the global load
// beside it, which was reported as run by no thread.
#include <cuda_runtime.h>
#include <cstdlib>

__constant__ float coeff[16];

// `first` and `last` come from the command line: taken as 4096 each, the loop would not run;
// the global load runs at first = 1024 (the search's first candidate), and reads 32
// consecutive floats per warp in every iteration.
__global__ void weightedRows(const float* __restrict__ in, float* __restrict__ out, int first, int last) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int j = first; j < last; ++j) {
    acc[j & 3] += coeff[j & 15] * in[j * 4096 + i];  // expect: global load sectors=4 ideal=4 eta=1.00
  }
  out[i] = acc[0] + acc[1] + acc[2] + acc[3];  // expect: global store sectors=4 ideal=4 eta=1.00
}

int main(int argc, char** argv) {
  if (argc < 3) return 1;
  const int first = atoi(argv[1]), last = atoi(argv[2]);
  float *in, *out;
  cudaMalloc(&in, sizeof(float) * 4096 * 4096);
  cudaMalloc(&out, sizeof(float) * 4096);
  weightedRows<<<16, 256>>>(in, out, first, last);
  cudaDeviceSynchronize();
  return 0;
}
