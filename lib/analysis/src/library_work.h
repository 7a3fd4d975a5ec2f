// Which host calls hand the GPU work of a library (cuBLAS, cuFFT, cuSPARSE, cuSOLVER, cuDNN,
// cuRAND, cuTENSOR, NCCL, CUB's device-wide algorithms, Thrust on device data): work whose
// memory traffic the analysis cannot see, but whose repetition it can count
// (launch_repeats.cpp, LaunchCollector::repeatedLibraryWork). A kernel launched once beside
// such work repeated in the program's loop is a setup kernel (docs/findings.md, "Levels";
// lib/report/src/setup_level.cpp). No Clang here: the names alone decide, so that the list is
// tested on its own (test/analysis/library_work_test.cpp).
#pragma once

#include <string_view>

namespace coalesce::analysis {

// Whether a call of the function `qualifiedName` ("cublasDgemm", "thrust::sort",
// "cub::DeviceRadixSort::SortKeys") runs library work on the GPU. Handles, plans,
// descriptors, settings and workspace queries (`cublasCreate`, `cufftPlan2d`,
// `cusparseSpMV_bufferSize`, `cudnnSetTensor4dDescriptor`) are not work. A Thrust algorithm
// is work only on device data or under a device execution policy (on host vectors it runs on
// the CPU): the name alone says OnDeviceData, and the caller looks at the arguments only then.
enum class LibraryWork { None, Always, OnDeviceData };
LibraryWork libraryWorkOf(std::string_view qualifiedName);

// The same, with what the call's arguments say already known.
inline bool isLibraryWork(std::string_view qualifiedName, bool deviceArgument) {
  const LibraryWork kind = libraryWorkOf(qualifiedName);
  return kind == LibraryWork::Always || (kind == LibraryWork::OnDeviceData && deviceArgument);
}

}  // namespace coalesce::analysis
