// Findings in kernels their own file never launches, while it launches others: the naive
// variant a sample keeps for comparison, a path the program no longer takes. Their figures
// rest on a guessed block and nobody runs them, so they are notes, not warnings
// (docs/findings.md, "Levels"). A kernel another file launches gets its block from
// --block-dim or a `coalesce-lint: block=` comment, and with it its warnings back.
#pragma once

#include <vector>

#include "coalesce/records/block_detail.h"
#include "coalesce/records/records.h"
#include "coalesce/report/finding.h"

namespace coalesce::report::detail {

// Caps at Note every access or branch finding all of whose kernels (Finding::kernel and
// ::instantiations) are never launched in the file that defines them, where that file
// launches another kernel, or where the file's host code had errors and the block is a guess
// (a launch may sit in the code that did not parse). Barrier findings are hazards whoever
// runs them: left as they are.
void capUnlaunchedKernels(std::vector<Finding>& findings, const AnalysisResult& analysis);

}  // namespace coalesce::report::detail
