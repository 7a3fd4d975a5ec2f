// Global accesses whose lanes are strided or scattered over more sectors than their bytes need.
#pragma once

#include "coalesce/report/rule.h"

namespace coalesce::report {

class UncoalescedGlobalAccess : public Rule {
 public:
  explicit UncoalescedGlobalAccess(std::string id) : Rule(std::move(id)) {}
  RuleDescription description() const override;
  Gate gate() const override { return Gate::Efficiency; }
  std::optional<Finding> checkAccess(const AccessSite& site, const RuleContext& ctx) const override;
};

}  // namespace coalesce::report
