// A finding on an access that runs only where an if tests per-thread values the analysis does
// not follow: data each thread loads (`isnan(v[i])`, `x < p[tid].cost`, `ind[k] >= max`), or a
// flag set in a data-dependent loop. Its figures assume every lane passes, and how often the
// path runs, hence what it wastes, is not known statically: a NaN fix-up, a clamp, a rare
// tail, a "converged" flag. Such findings are notes that name the condition, not warnings a
// build gates on (docs/findings.md, "Levels"; AccessSite::dataGuards says which guards count).
#pragma once

#include <vector>

#include "coalesce/records/records.h"
#include "coalesce/report/finding.h"

namespace coalesce::report::detail {

// Caps at Note every access finding whose access runs under such a guard (barriers, branches
// and the per-kernel rules are left as they are).
void capDataGuardedAccesses(std::vector<Finding>& findings, const AnalysisResult& analysis);

}  // namespace coalesce::report::detail
