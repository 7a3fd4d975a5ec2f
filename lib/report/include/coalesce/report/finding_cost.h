// How costly a finding is, as the HTML report sorts its index: the bytes it wastes per launch
// when the finding carries its cost (docs/findings.md), else its excess per request.
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
  std::string unit;  // "bytes per launch", "sectors/request" or "wavefronts/request"; empty without a figure
  bool perLaunch = false;  // excessPerRequest holds the bytes wasted per launch
};

FindingCost findingCost(const Finding& finding, const AnalysisResult& analysis);

}  // namespace coalesce::report
