// A setup kernel launched once on each GPU (session 17: the Parallel Research Kernels'
// multi-GPU dgemm driver, panel 17: noise, "runs once before timing starts"). The loop over
// the GPUs selects the device by its counter, so it repeats nothing on one device: the kernel
// runs once per device per run, while the library's GEMM runs in the timed loop on each
// device (lib/analysis/src/launch_repeats.cpp, `loopOverDevices`). Its transposed store is a
// note; counted as a loop of unknown count (64 launches) it was a warning. Minimal code written
// for this test; the library is declared here, as its header would.
#include <cuda_runtime.h>
#include <cstdlib>

struct cublasContext;
typedef cublasContext* cublasHandle_t;
int cublasDgemm_v2(cublasHandle_t handle, int transa, int transb, int m, int n, int k, const double* alpha,
                   const double* A, int lda, const double* B, int ldb, const double* beta, double* C, int ldc);

__global__ void initOnEachDevice(int order, double* A) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < order && j < order) A[i * order + j] = i;  // finding: inverted-thread-axes=note
}

void selectDevice(int d) { cudaSetDevice(d); }  // a wrapper, as the drivers keep one

int main(int argc, char** argv) {
  const int iterations = std::atoi(argv[1]);
  const int order = std::atoi(argv[2]);
  int devices = 0;
  cudaGetDeviceCount(&devices);
  double* A[16];
  cublasHandle_t h[16];
  const dim3 block(32, 32);
  const dim3 grid((order + 31) / 32, (order + 31) / 32);
  for (int d = 0; d < devices; ++d) {
    selectDevice(d);
    cudaMalloc(&A[d], sizeof(double) * order * order);
    initOnEachDevice<<<grid, block>>>(order, A[d]);
  }
  const double one = 1.0;
  for (int iter = 0; iter < iterations; ++iter)
    for (int d = 0; d < devices; ++d) {
      cudaSetDevice(d);
      cublasDgemm_v2(h[d], 0, 0, order, order, order, &one, A[d], order, A[d], order, &one, A[d], order);
    }
  cudaDeviceSynchronize();
  return 0;
}
