// Block-wide barriers (__syncthreads, cooperative groups' block sync) that not every
// thread of the block reaches (see docs/rules/barrier-in-divergent-code.md).
#pragma once

#include "coalesce/report/rule.h"

namespace coalesce::report {

class BarrierInDivergentCode : public Rule {
 public:
  explicit BarrierInDivergentCode(std::string id) : Rule(std::move(id)) {}
  RuleDescription description() const override;
  Gate gate() const override { return Gate::None; }
  Severity defaultSeverity() const override { return Severity::Error; }
  std::optional<Finding> checkBarrier(const BarrierSite& site, const RuleContext& ctx) const override;
};

}  // namespace coalesce::report
