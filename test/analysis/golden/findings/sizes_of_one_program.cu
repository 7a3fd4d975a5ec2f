// One size the program reads at run time, shared by its launches (docs/findings.md, "requests
// per launch"): a kernel with one thread per row next to one with a thread per element of the
// same n x n matrix. With every grid of unknown size counted as 262,144 threads, the row
// kernel weighed as much as the element kernel and its strided read was 45 % of the program
// (Rodinia gaussian's Fan1 beside Fan2, 31 %, judged noise); with `n` at the program's one
// default for the grids too, the two weigh 1 to n, as they do when the program runs.
// Minimal kernels written for this test.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdlib>

// One thread per row: each reads its row's diagonal element, n + 1 floats apart.
__global__ void perRow(const float* __restrict__ a, float* __restrict__ diag, int n) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n) return;
  diag[row] = a[row * n + row];  // finding: uncoalesced-global-access=note
}

// One thread per element: the transposed store is the program's problem.
__global__ void perElement(const float* __restrict__ a, float* __restrict__ b, int n) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= n || y >= n) return;
  const float v = a[y * n + x];  // finding: none
  b[x * n + y] = v;  // finding: inverted-thread-axes=warning
}

// Launched over a grid the code does not show (a property of the GPU): the old default.
__global__ void perDevice(const float* __restrict__ a, float* __restrict__ b) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  b[i] = a[i];  // finding: none
}

// Launched in a host loop whose counter its grid reads: the counter at the loop's middle.
__global__ void shrinking(const float* __restrict__ a, float* __restrict__ b, int k) {
  const int i = k + blockIdx.x * blockDim.x + threadIdx.x;
  b[i] = a[i];  // finding: none
}

// Launched over a grid and a block that the host sizes from each other (Rodinia hybridsort's
// merge passes: `grid.x = needed / threads.x`, then `threads.x = needed / grid.x`): the analysis
// once followed the two for ever and crashed; the grid keeps the old default.
__global__ void runtimeBlockMutual(const float* __restrict__ a, float* __restrict__ b) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  b[i] = a[i];  // finding: none
}

int main(int argc, char** argv) {
  const int n = atoi(argv[1]);
  float *a, *b, *diag;
  cudaMalloc(&a, sizeof(float) * n * n);
  cudaMalloc(&b, sizeof(float) * n * n);
  cudaMalloc(&diag, sizeof(float) * n);
  const dim3 rowBlock(256);
  for (int it = 0; it < 10; ++it) {
    perRow<<<(int)ceil(n / (double)rowBlock.x), rowBlock>>>(a, diag, n);
    perElement<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(a, b, n);
  }
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  perDevice<<<4 * prop.multiProcessorCount, 256>>>(a, b);
  for (int k = 0; k < n; k += 16) shrinking<<<(n - k) / 16, 16>>>(a, b, k);
  dim3 mutualGrid(1), mutualBlock(256);
  mutualGrid.x = n / mutualBlock.x;
  if (mutualGrid.x < 8) {
    mutualGrid.x = 8;
    mutualBlock.x = n / mutualGrid.x;
  }
  runtimeBlockMutual<<<mutualGrid, mutualBlock>>>(a, b);
  cudaDeviceSynchronize();
  return 0;
}
