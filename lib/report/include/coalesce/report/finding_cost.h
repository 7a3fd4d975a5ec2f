// How costly a finding is, as the HTML report sorts its index: one function, so that a
// finding's own cost (wasted sectors per launch, once findings carry one) replaces this
// key in one place.
#pragma once

#include <optional>
#include <string>

#include "coalesce/records/records.h"
#include "coalesce/report/finding.h"

namespace coalesce::report {

struct FindingCost {
  // Larger is costlier. Sectors (global) or wavefronts (shared) per warp request beyond the
  // ideal, as the finding's access record gives them (the worst case for an access through
  // loaded indices); nullopt for findings that are not about a memory access (branches,
  // barriers, pointer parameters), which sort after every access finding.
  std::optional<double> excessPerRequest;
  std::string unit;  // "sectors/request" or "wavefronts/request"; empty without a figure
};

FindingCost findingCost(const Finding& finding, const AnalysisResult& analysis);

}  // namespace coalesce::report
