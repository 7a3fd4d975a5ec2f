// A kernel that only writes a table of pointers for other GPU work (lib/report/src/setup_level.cpp,
// `capPointerTableKernels`): ggml's `k_compute_batched_ptrs`, which fills the source and
// destination pointers of a `cublasGemmBatchedEx` with its thread axes swapped (blind panel 28:
// noise, "tiny pointer-setup kernel"); MAGMA's `magma_iset_pointer_kernel` and Gpufit's
// `cuda_point_to_data_sets` are the same idiom. Its findings are notes; before, alone in its
// program and over sizes read at run time, they were warnings (the swapped axes over data stay
// warnings: findings/sizes_of_one_program.cu, named_naive_variants.cu). Minimal kernel written for
// this test.
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void batchedPointers(const float* a, float* c, const float** aPtrs, float** cPtrs, int ne12, int ne13,
                                int stride) {
  const int i12 = blockIdx.x * blockDim.x + threadIdx.x;
  const int i13 = blockIdx.y * blockDim.y + threadIdx.y;
  if (i12 >= ne12 || i13 >= ne13) return;
  aPtrs[i12 * ne13 + i13] = a + (i12 + i13 * ne12) * stride;  // finding: inverted-thread-axes=note
  cPtrs[i12 * ne13 + i13] = c + (i12 + i13 * ne12) * stride;  // finding: inverted-thread-axes=note
}

int main(int argc, char** argv) {
  const int ne12 = atoi(argv[1]), ne13 = atoi(argv[2]);
  float *a, *c;
  const float** aPtrs;
  float** cPtrs;
  cudaMalloc(&a, 1 << 26);
  cudaMalloc(&c, 1 << 26);
  cudaMalloc(&aPtrs, 1 << 20);
  cudaMalloc(&cPtrs, 1 << 20);
  const dim3 block(32, 8);
  batchedPointers<<<dim3((ne12 + 31) / 32, (ne13 + 7) / 8), block>>>(a, c, aPtrs, cPtrs, ne12, ne13, 4096);
  cudaDeviceSynchronize();
  return 0;
}
