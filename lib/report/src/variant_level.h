// A finding whose access another kernel of the same file performs as written, without the
// problem: the naive variant a sample or benchmark keeps beside its fixed one (a transpose
// whose next kernel pads the tile, a naive store the coalesced kernel also writes). The same
// expression is coalesced or conflict-free there, so the fix is in the file already; the
// finding is a note that names that kernel (docs/findings.md, "Levels").
#pragma once

#include <vector>

#include "coalesce/model/arch.h"
#include "coalesce/records/records.h"
#include "coalesce/report/finding.h"

namespace coalesce::report::detail {

void capVariantsFixedInFile(std::vector<Finding>& findings, const AnalysisResult& analysis, const model::Arch& arch);

// Caps at Note the access and branch findings of kernels whose name calls them naive
// (`transposeNaive`, `sgemm_naive`, `matmul_unoptimized`; every instantiation's) when their
// translation unit also has a kernel whose name says the same job without calling it naive
// (`transposeCoalesced`, `sgemm_shared_mem_block`): the author keeps the simple version as a
// baseline beside better ones. Every such place the blind panels judged (five, in four
// panels) was noise, "a deliberately naive teaching variant" (docs/precision.md, session 14).
void capNamedNaiveVariants(std::vector<Finding>& findings, const AnalysisResult& analysis);

// Caps at Note the access and branch findings of a kernel whose program, a file of its own with
// its `main` (KernelRecord::launchedFromMain), sits beside a later such program of its series
// that does the same job (kernel_names::sameJobName, or the same name) with no finding on its
// accesses of the same memory space (or on its branches, for a branch's finding): the
// steps of a tutorial or benchmark series, one program per file in one folder (`reduce_v1_*.cu`
// beside `reduce_v2_no_bank_conflict.cu`) or in folders named alike but for a number
// (`task1/`, `task2/`), the files named as one series (the same first word that is not a
// number: `reduce_v1_*`, `reduce_v2_*`; `003_1_transpose*`, `003_2_transpose*`). Every such place the blind panels judged (eleven, in panels 12 to 14:
// "a deliberately naive teaching variant whose fix is the next file") was noise. Library files
// (no `main` of their own) never count: both versions may be in use.
void capStepsFixedBeside(std::vector<Finding>& findings, const AnalysisResult& analysis);

}  // namespace coalesce::report::detail
