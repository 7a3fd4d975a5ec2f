// Global accesses whose wasted sectors are the same thread's next iterations' data (a thread
// walking its own row element by element): the instruction's figure is true, but whether it
// costs traffic depends on the caches keeping each line until the thread comes back to it.
// When every warp an SM holds can keep the lines its walking accesses touch (L1 for loads, the
// SM's share of L2 for stores), the finding is a note that says why; when they cannot, it stays
// as it is, with a note saying the lines are evicted first (docs/findings.md, "Levels").
#pragma once

#include <vector>

#include "coalesce/model/arch.h"
#include "coalesce/records/records.h"
#include "coalesce/report/finding.h"

namespace coalesce::report::detail {

void capServedAcrossIterations(std::vector<Finding>& findings, const AnalysisResult& analysis,
                               const model::Arch& arch);

}  // namespace coalesce::report::detail
