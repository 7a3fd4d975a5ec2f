// Which host calls hand the GPU a library's work (lib/analysis/src/library_work.h): what makes
// a kernel launched once beside them a setup kernel (lib/report/src/setup_level.cpp).
#include <catch2/catch.hpp>

#include "library_work.h"

using coalesce::analysis::isLibraryWork;

TEST_CASE("library routines that compute are work, their set-up is not") {
  for (const char* work : {"cublasDgemm_v2", "cublasSgemmStridedBatched", "cublasLtMatmul", "cublasSgetrfBatched",
                           "cufftExecC2C", "cufftXtExec", "curandGenerateUniform", "cusparseSpMV", "cusolverDnDgetrf",
                           "cudnnConvolutionForward", "cutensorContract", "ncclAllReduce", "cub::DeviceReduce::Sum"})
    CHECK(isLibraryWork(work, false));
  for (const char* setup :
       {"cublasCreate_v2", "cublasDestroy_v2", "cublasSetStream_v2", "cublasSetMatrix", "cublasGetVersion",
        "cublasLtMatmulDescCreate", "cufftPlan2d", "cufftDestroy", "curandCreateGenerator",
        "curandSetPseudoRandomGeneratorSeed", "cusparseSpMV_bufferSize", "cusolverDnDgetrf_bufferSize",
        "cudnnSetTensor4dDescriptor", "cudnnGetConvolutionForwardAlgorithm_v7", "ncclCommInitRank", "ncclGetUniqueId",
        "cublas", "cudaMemcpy", "cudaDeviceSynchronize", "myCublasWrapper"})
    CHECK_FALSE(isLibraryWork(setup, false));
}

TEST_CASE("a Thrust algorithm is the GPU's work only on device data") {
  CHECK(isLibraryWork("thrust::sort", true));
  CHECK(isLibraryWork("thrust::inclusive_scan", true));
  CHECK_FALSE(isLibraryWork("thrust::sort", false));       // host vectors: the CPU sorts
  CHECK_FALSE(isLibraryWork("thrust::raw_pointer_cast", true));  // not an algorithm
  CHECK_FALSE(isLibraryWork("thrust::device_vector<float>::resize", true));
}
