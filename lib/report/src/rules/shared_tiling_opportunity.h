// Global loads in a loop whose bytes several warps of one block read in the same iteration:
// a shared-memory tile would fetch them once (docs/rules/shared-tiling-opportunity.md).
#pragma once

#include "coalesce/report/rule.h"

namespace coalesce::report {

class SharedTilingOpportunity : public Rule {
 public:
  explicit SharedTilingOpportunity(std::string id) : Rule(std::move(id)) {}
  RuleDescription description() const override;
  Gate gate() const override { return Gate::Reuse; }
  Severity defaultSeverity() const override { return Severity::Note; }
  std::optional<double> defaultThreshold() const override { return 2.0; }
  bool enabledByDefault() const override { return false; }
  std::optional<Finding> checkAccess(const AccessSite& site, const RuleContext& ctx) const override;
};

}  // namespace coalesce::report
