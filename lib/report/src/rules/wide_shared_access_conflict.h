// 64- and 128-bit shared-memory accesses that conflict inside their half-warp phases.
#pragma once

#include "coalesce/report/rule.h"

namespace coalesce::report {

class WideSharedAccessConflict : public Rule {
 public:
  explicit WideSharedAccessConflict(std::string id) : Rule(std::move(id)) {}
  RuleDescription description() const override;
  // A note by default: judged blind on public code (docs/precision.md), none of 8 was worth a
  // change (deliberate sample steps; wide loads nvcc keeps in registers).
  Severity defaultSeverity() const override { return Severity::Note; }
  Gate gate() const override { return Gate::ConflictDegree; }
  std::optional<Finding> checkAccess(const AccessSite& site, const RuleContext& ctx) const override;
};

}  // namespace coalesce::report
