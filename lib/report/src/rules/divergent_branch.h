// Branches whose condition differs between the lanes of a warp in more warps than a
// threshold on the thread index would split (see docs/rules/divergent-branch.md).
#pragma once

#include "coalesce/report/rule.h"

namespace coalesce::report {

class DivergentBranch : public Rule {
 public:
  explicit DivergentBranch(std::string id) : Rule(std::move(id)) {}
  RuleDescription description() const override;
  // A note by default: judged blind on public code (docs/precision.md), none of 42 divergent
  // branches was worth a change (leader lanes, halos, reduction steps are the algorithm).
  Severity defaultSeverity() const override { return Severity::Note; }
  Gate gate() const override { return Gate::DivergentShare; }
  std::optional<double> defaultThreshold() const override { return 0.0; }
  std::optional<Finding> checkBranch(const BranchSite& site, const RuleContext& ctx) const override;
};

}  // namespace coalesce::report
