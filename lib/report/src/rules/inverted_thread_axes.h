// 2D blocks whose threadIdx.x walks the slow dimension: neighbouring threads are a whole row apart.
#pragma once

#include "coalesce/report/rule.h"

namespace coalesce::report {

class InvertedThreadAxes : public Rule {
 public:
  explicit InvertedThreadAxes(std::string id) : Rule(std::move(id)) {}
  RuleDescription description() const override;
  Gate gate() const override { return Gate::Efficiency; }
  std::optional<Finding> checkAccess(const AccessSite& site, const RuleContext& ctx) const override;
};

}  // namespace coalesce::report
