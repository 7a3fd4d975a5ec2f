// Findings in a setup kernel: launched once per run of a program that repeats GPU work of a
// library (cuBLAS, cuFFT, ...) in its loops, work whose traffic the analysis cannot weigh
// (KernelRecord::repeatedWork). The kernel's share of the program cannot be computed, but
// the program runs the library's work many times and the kernel once: its waste is a small
// part of the program's time, so its findings are notes (docs/findings.md, "Levels").
#pragma once

#include <vector>

#include "coalesce/records/records.h"
#include "coalesce/report/finding.h"

namespace coalesce::report::detail {

// Caps at Note every access or branch finding all of whose kernels (Finding::kernel and
// ::instantiations) are launched exactly once per run beside library work made at least twice
// per run. Barrier findings are hazards however often they run: left as they are.
void capSetupKernels(std::vector<Finding>& findings, const AnalysisResult& analysis);

// Caps at Note every access or branch finding all of whose kernels only write a table of
// pointers (every global access a store of a pointer): the setup of a batched library call or
// of the kernels that follow (ggml's `k_compute_batched_ptrs` before `cublasGemmBatchedEx`,
// MAGMA's `magma_iset_pointer_kernel`, Gpufit's `cuda_point_to_data_sets`). Its traffic is 8
// bytes per entry of a table the real work reads once; blind panel 28 judged its three swapped
// axes noise, and the library's work it sets up is what the analysis cannot weigh.
void capPointerTableKernels(std::vector<Finding>& findings, const AnalysisResult& analysis);

}  // namespace coalesce::report::detail
