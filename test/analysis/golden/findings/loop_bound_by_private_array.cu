// A runtime scalar that bounds a loop whose counter indexes a fixed-size array: `float
// cache[2048]; for (int i = 0; i < k; i++) cache[i] = ...` runs past the array for any k above
// 2048, so no correct launch passes the 4096 the analysis takes for a size the code does not
// fix. Hetu's MoE top-k kernels (blind panel 38) store each thread's k results `row * k` apart:
// 32 sectors per request at k = 4096, judged false (the gate's k is 1 or 2, which the private
// `cache[2048]` with its comment `k<100` caps). Such a default is one no launch can have
// (lib/analysis/src/array_loop_bounds.cpp): the findings it spaces are notes that say so. The
// scan over `col`, which no array bounds, keeps its warning. Minimal kernel written for this test.
#include <cuda_runtime.h>
#include <cstdlib>

__global__ void topk(float* input, float* out_idx, int k, int col) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  float* in = input + row * col;
  float* o = out_idx + row * k;
  float cache[2048];
  for (int i = 0; i < k; i++) {
    float best = -1e30f;
    int at = 0;
    for (int j = 0; j < col; j++)
      if (in[j] > best) {  // finding: uncoalesced-global-access=warning
        best = in[j];  // finding: none
        at = j;
      }
    cache[i] = best;
    o[i] = at;  // finding: uncoalesced-global-access=note
    in[at] = -1e30f;  // finding: none
  }
  for (int i = 0; i < k; i++) in[(int)o[i]] = cache[i];  // finding: uncoalesced-global-access=note
}

int main(int argc, char** argv) {
  float *a, *b;
  const int rows = atoi(argv[1]), k = atoi(argv[2]), col = atoi(argv[3]);
  cudaMalloc(&a, size_t(rows) * col * sizeof(float));
  cudaMalloc(&b, size_t(rows) * k * sizeof(float));
  for (int step = 0; step < 100; ++step) topk<<<(rows + 255) / 256, 256>>>(a, b, k, col);
  cudaDeviceSynchronize();
  return 0;
}
