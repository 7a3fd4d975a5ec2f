// Kernels whose block shape or shared memory caps the theoretical occupancy below a share of
// the SM's warps (docs/rules/occupancy-limited.md).
#pragma once

#include "coalesce/report/rule.h"

namespace coalesce::report {

class OccupancyLimited : public Rule {
 public:
  explicit OccupancyLimited(std::string id) : Rule(std::move(id)) {}
  RuleDescription description() const override;
  Gate gate() const override { return Gate::Occupancy; }
  Severity defaultSeverity() const override { return Severity::Note; }
  std::optional<double> defaultThreshold() const override { return 0.5; }
  bool enabledByDefault() const override { return false; }
  std::optional<Finding> checkKernel(const KernelRecord& kernel, const RuleContext& ctx) const override;
};

}  // namespace coalesce::report
