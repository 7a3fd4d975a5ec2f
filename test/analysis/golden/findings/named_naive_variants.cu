// A kernel whose name calls it naive, beside a kernel of the same translation unit whose name
// says the same job without calling it naive, is the baseline a benchmark or a course keeps on
// purpose (lib/report/src/variant_level.cpp, capNamedNaiveVariants): its findings are notes
// naming the better version. A naive kernel with no such sibling is the program's own version
// and keeps its warning; Naive Bayes is an algorithm, not a version. A name that negates the
// technique its sibling is named by (`copyDataNonCoalesced` beside `copyDataCoalesced`, the GPU
// MODE lectures' lecture_008/coalesce.cu, judged noise by blind panel 28) calls itself naive too.
#include <cuda_runtime.h>

__global__ void transposeNaive(const float* in, float* out, int n) {
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  out[x * n + y] = in[y * n + x];  // finding: inverted-thread-axes=note
}

__global__ void transposeCoalesced(const float* in, float* out, int n) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];  // finding: none
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];  // finding: none
}

__global__ void scaleColumnsNaive(const float* in, float* out, int n) {
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  out[x * n + y] = 2.0f * in[x * n + y];  // finding: inverted-thread-axes=warning inverted-thread-axes=warning
}

__global__ void naive_bayes_scores(const float* feat, float* score, int n) {
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  score[x * n + y] = feat[y * n + x];  // finding: inverted-thread-axes=warning
}

__global__ void bayes_scores_shared(const float* feat, float* score, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  score[i] = feat[i];  // finding: none
}

__global__ void copyDataNonCoalesced(const float* in, float* out, int n) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index < n) out[index] = in[(index * 2) % n];  // finding: uncoalesced-global-access=note
}

__global__ void copyDataCoalesced(const float* in, float* out, int n) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index < n) out[index] = in[index];  // finding: none
}

__global__ void gatherRowsNonCoalesced(const float* in, float* out, int n) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index < n) out[index] = in[(index * 2) % n];  // finding: uncoalesced-global-access=warning
}

int main() {
  const int n = 4096;
  float *a, *b, *c;
  cudaMalloc(&a, n * n * sizeof(float));
  cudaMalloc(&b, n * n * sizeof(float));
  cudaMalloc(&c, n * n * sizeof(float));
  dim3 grid(n / 32, n / 32), block(32, 32);
  for (int r = 0; r < 10; ++r) {
    transposeNaive<<<grid, block>>>(a, b, n);
    transposeCoalesced<<<grid, block>>>(c, b, n);  // other data: not variants run in turn, the name decides
    scaleColumnsNaive<<<grid, block>>>(b, c, n);
    naive_bayes_scores<<<grid, block>>>(a, c, n);
    bayes_scores_shared<<<n * n / 256, 256>>>(a, c, n);
    copyDataNonCoalesced<<<n * n / 128, 128>>>(a, c, n * n);
    copyDataCoalesced<<<n * n / 128, 128>>>(a, c, n * n);
    gatherRowsNonCoalesced<<<n * n / 128, 128>>>(a, c, n * n);
  }
  return 0;
}
