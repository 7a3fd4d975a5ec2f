// 64- and 128-bit shared-memory accesses that conflict inside their half-warp phases.
#pragma once

#include "coalesce/report/rule.h"

namespace coalesce::report {

class WideSharedAccessConflict : public Rule {
 public:
  explicit WideSharedAccessConflict(std::string id) : Rule(std::move(id)) {}
  RuleDescription description() const override;
  Gate gate() const override { return Gate::ConflictDegree; }
  std::optional<Finding> checkAccess(const AccessSite& site, const RuleContext& ctx) const override;
};

}  // namespace coalesce::report
