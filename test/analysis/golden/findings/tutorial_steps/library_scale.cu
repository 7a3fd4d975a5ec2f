// Two versions of one job in a library's files (no `main`: another program calls them, and
// either may be the one in use): the strided one keeps its warning though library_scale_fast.cu
// beside it does the job without the problem.
#include <cuda_runtime.h>

__global__ void scaleColumns(float* data, int rows) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  for (int c = 0; c < 64; ++c) data[row * 64 + c] *= 2.0f;  // finding: uncoalesced-global-access=warning
}

void scaleColumnsOnDevice(float* data, int rows) { scaleColumns<<<rows / 256, 256>>>(data, rows); }
