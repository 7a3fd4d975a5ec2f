// Each loop of unknown trip count in a nest counts 64 iterations of its own (docs/findings.md,
// "Cost", session 13): the nest's body runs 64 x 64 times per thread, not 64 together. Until
// session 13 the one strided store after a 2D neighbourhood read per output element was 10 % of
// its kernel's traffic, a warning (Rodinia leukocyte's `dilate_kernel`, 25 x 25 texels per
// pixel; blind panel 11: noise). Minimal kernel written for this test.
#include <cuda_runtime.h>
#include <cstdlib>

__global__ void dilateWindow(const float* __restrict__ in, float* __restrict__ out, int m, int n, int rows,
                             int cols) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= m * n) return;
  float best = 0;
  for (int a = 0; a < rows; ++a)
    for (int b = 0; b < cols; ++b) best = fmaxf(best, in[(a * cols + b) * m * n + t]);  // finding: none
  out[(t % m) * n + t / m] = best;  // finding: uncoalesced-global-access=note
}

int main(int argc, char** argv) {
  const int m = atoi(argv[1]), n = atoi(argv[2]);
  float *in, *out;
  cudaMalloc(&in, 2 * m * n * sizeof(float));
  cudaMalloc(&out, m * n * sizeof(float));
  dilateWindow<<<(m * n + 255) / 256, 256>>>(in, out, m, n, atoi(argv[3]), atoi(argv[4]));
  cudaDeviceSynchronize();
  return 0;
}
