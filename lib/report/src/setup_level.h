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

}  // namespace coalesce::report::detail
