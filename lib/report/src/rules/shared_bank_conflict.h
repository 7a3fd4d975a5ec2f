// Shared-memory accesses of 32 bits or less whose lanes hit distinct words in the same bank.
#pragma once

#include "coalesce/report/rule.h"

namespace coalesce::report {

class SharedBankConflict : public Rule {
 public:
  explicit SharedBankConflict(std::string id) : Rule(std::move(id)) {}
  RuleDescription description() const override;
  Gate gate() const override { return Gate::ConflictDegree; }
  std::optional<Finding> checkAccess(const AccessSite& site, const RuleContext& ctx) const override;
};

}  // namespace coalesce::report
