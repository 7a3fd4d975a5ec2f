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

}  // namespace coalesce::report::detail
