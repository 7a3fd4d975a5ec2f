// A pointer a loop moves by a per-thread amount of its own (`dc = dc + k * lddc` with k from
// threadIdx.y, MAGMA's zlarf.cu): its accesses address the same allocation at offsets the
// analysis no longer follows. They were called gathers "through loaded indices" (a
// scattered-indirect-access note; blind panel 24, session 28: false, no index is loaded);
// they are now accesses whose address could not be followed, with no finding. A loop that
// moves the pointer by a uniform step keeps its figures. Minimal kernels written for this test.
#include <cuda_runtime.h>

__global__ void movedPerThread(int m, int n, const double* dv, double* dc, int lddc, double* out) {
  const int i = threadIdx.x, col = threadIdx.y;
  for (int k = col; k < n; k += 16) {
    dc = dc + k * lddc;
    double sum = 0;
    for (int j = i; j < m; j += 32) sum += dv[j] * dc[j];  // finding: none
    out[i + 32 * col] = sum;  // finding: none
  }
}

__global__ void movedByUniformStep(int m, int n, const double* dv, double* dc, int lddc, double* out) {
  const int i = threadIdx.x, col = threadIdx.y;
  for (int k = 0; k < n; k += 16) {
    dc = dc + 16 * lddc;
    double sum = 0;
    for (int j = i; j < m; j += 32) sum += dv[j] * dc[j * 33];  // finding: uncoalesced-global-access=warning
    out[i + 32 * col] = sum;  // finding: none
  }
}

int main() {
  double *dv, *dc, *out;
  cudaMalloc(&dv, 1 << 20);
  cudaMalloc(&dc, 1 << 26);
  cudaMalloc(&out, 1 << 20);
  movedPerThread<<<64, dim3(32, 16)>>>(1024, 256, dv, dc, 1024, out);
  movedByUniformStep<<<64, dim3(32, 16)>>>(1024, 256, dv, dc, 1024, out);
  cudaDeviceSynchronize();
  return 0;
}
