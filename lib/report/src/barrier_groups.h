// One finding for the barriers of a kernel that one guard splits. An early `return` under a
// thread-dependent condition, or a loop whose trip count differs between threads, puts every
// later barrier of the kernel (or of the loop's body) under the same guard: NPB-GPU's BT
// x_solve kernel gave thirteen errors for its one early return. The developer's fix is one
// change to that guard (docs/rules/barrier-in-divergent-code.md), so the report says it once,
// at the first barrier, and lists the others.
#pragma once

#include <vector>

#include "coalesce/records/records.h"
#include "coalesce/report/finding.h"

namespace coalesce::report::detail {

// Merges the barrier-in-divergent-code findings of one (file, kernel, guard, severity) into the
// first in source order, which gains a note naming the other barriers' lines; the others are
// dropped. Findings of other rules, and barriers whose guard text is empty, are left as they are.
void mergeBarriersOfOneGuard(std::vector<Finding>& findings, const AnalysisResult& analysis);

}  // namespace coalesce::report::detail
