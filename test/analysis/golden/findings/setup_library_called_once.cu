// The counterpart of setup_before_library_loop.cu: the library's work is made once, as the
// kernel is launched once, so nothing says which of them the run repeats. The kernel's
// transposed stores keep their warnings (lib/report/src/setup_level.cpp needs library work
// made at least twice per run). Minimal code written for this test.
#include <cuda_runtime.h>
#include <cstdlib>

struct cublasContext;
typedef cublasContext* cublasHandle_t;
int cublasCreate_v2(cublasHandle_t* handle);
int cublasDgemm_v2(cublasHandle_t handle, int transa, int transb, int m, int n, int k, const double* alpha,
                   const double* A, int lda, const double* B, int ldb, const double* beta, double* C, int ldc);

__global__ void fillOperands(int order, double* A, double* B) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < order && j < order) {
    A[i * order + j] = i;  // finding: inverted-thread-axes=warning
    B[i * order + j] = j;  // finding: inverted-thread-axes=warning
  }
}

int main(int argc, char** argv) {
  const int order = std::atoi(argv[1]);
  double *A, *B, *C;
  cudaMalloc(&A, sizeof(double) * order * order);
  cudaMalloc(&B, sizeof(double) * order * order);
  cudaMalloc(&C, sizeof(double) * order * order);
  cublasHandle_t h;
  cublasCreate_v2(&h);
  fillOperands<<<dim3((order + 31) / 32, (order + 31) / 32), dim3(32, 32)>>>(order, A, B);
  const double one = 1.0;
  cublasDgemm_v2(h, 0, 0, order, order, order, &one, A, order, B, order, &one, C, order);
  cudaDeviceSynchronize();
  return 0;
}
