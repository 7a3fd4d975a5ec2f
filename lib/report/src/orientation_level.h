// A strided global access that only a layout change could coalesce, on an array the same
// kernel also reads or writes coalesced at least as often along the other axis: the halo
// column of a tile whose rows are loaded coalesced, a boundary column beside the row loads.
// Transposing the array would scatter the majority access; no shared-memory tile helps,
// since the block's warps share none of the access's sectors (AccessSite::blockReuse). The
// traffic is real and inherent to the algorithm: a note, not a warning, that says so and names
// the access it would trade against (docs/findings.md, "Levels").
#pragma once

#include <vector>

#include "coalesce/records/records.h"
#include "coalesce/report/finding.h"

namespace coalesce::report::detail {

void capMinorityOrientation(std::vector<Finding>& findings, const AnalysisResult& analysis);

}  // namespace coalesce::report::detail
