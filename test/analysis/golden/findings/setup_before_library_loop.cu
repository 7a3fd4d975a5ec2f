// A setup kernel beside a library's repeated work (session 17's blind panel 17, the Parallel
// Research Kernels' cuBLAS drivers: every `init` finding judged noise, "runs once before
// timing starts; the timed loop only calls cuBLAS"). The program launches `initMatrices` once
// and calls the library's GEMM in its loop: the library's traffic is unseen, its repetition
// counted (lib/analysis/src/library_work.h), so the kernel's transposed stores are notes
// (lib/report/src/setup_level.cpp). The overload of `initMatrices` that nobody launches is a
// note of its own (its name carries its parameters: the two are told apart). Minimal code
// written for this test; the library is declared here, as its header would.
#include <cuda_runtime.h>
#include <cstdlib>

struct cublasContext;
typedef cublasContext* cublasHandle_t;
int cublasCreate_v2(cublasHandle_t* handle);
int cublasDgemm_v2(cublasHandle_t handle, int transa, int transb, int m, int n, int k, const double* alpha,
                   const double* A, int lda, const double* B, int ldb, const double* beta, double* C, int ldc);

__global__ void initMatrices(int order, double* A, double* B, double* C) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < order && j < order) {
    A[i * order + j] = i;  // finding: inverted-thread-axes=note
    B[i * order + j] = i;  // finding: inverted-thread-axes=note
    C[i * order + j] = 0;  // finding: inverted-thread-axes=note
  }
}

__global__ void initMatrices(int order, double* C) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < order && j < order) C[i * order + j] = 0;  // finding: inverted-thread-axes=note
}

int main(int argc, char** argv) {
  const int iterations = std::atoi(argv[1]);
  const int order = std::atoi(argv[2]);
  double *A, *B, *C;
  cudaMalloc(&A, sizeof(double) * order * order);
  cudaMalloc(&B, sizeof(double) * order * order);
  cudaMalloc(&C, sizeof(double) * order * order);
  cublasHandle_t h;
  cublasCreate_v2(&h);
  const dim3 block(32, 32);
  const dim3 grid((order + 31) / 32, (order + 31) / 32);
  initMatrices<<<grid, block>>>(order, A, B, C);
  const double one = 1.0;
  for (int iter = 0; iter <= iterations; ++iter)
    cublasDgemm_v2(h, 0, 0, order, order, order, &one, A, order, B, order, &one, C, order);
  cudaDeviceSynchronize();
  return 0;
}
