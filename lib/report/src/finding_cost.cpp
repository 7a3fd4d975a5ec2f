#include "coalesce/report/finding_cost.h"

#include <algorithm>

namespace coalesce::report {

FindingCost findingCost(const Finding& finding, const AnalysisResult& analysis) {
  FindingCost cost;
  if (finding.hasCost()) {
    cost.excessPerRequest = finding.costBytes();
    cost.unit = "bytes wasted per launch";
    cost.perLaunch = true;
    return cost;
  }
  if (!finding.access || *finding.access < 0 || static_cast<size_t>(*finding.access) >= analysis.accesses.size())
    return cost;
  const AccessSite& site = analysis.accesses[static_cast<size_t>(*finding.access)];
  const model::AccessFigures& f = site.figures;
  if (f.global) {
    cost.excessPerRequest = std::max(0.0, f.global->aligned.sectorsPerRequest - f.global->aligned.idealSectors);
    cost.unit = "sectors/request";
  } else if (f.shared) {
    cost.excessPerRequest = std::max(0.0, f.shared->aligned.wavefronts - f.shared->aligned.idealWavefronts);
    cost.unit = "wavefronts/request";
  } else if (f.sectorRange && finding.efficiency) {
    // Through loaded indices: the worst case, where eta = ideal / the range's top.
    cost.excessPerRequest = f.sectorRange->second * (1.0 - *finding.efficiency);
    cost.unit = "sectors/request";
  }
  return cost;
}

}  // namespace coalesce::report
