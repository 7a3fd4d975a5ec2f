// A hint, off by default: kernel pointer parameters that may alias a parameter written
// through (or read through) another one, with no __restrict__ on either
// (see docs/rules/missing-restrict.md).
#pragma once

#include "coalesce/report/rule.h"

namespace coalesce::report {

class MissingRestrict : public Rule {
 public:
  explicit MissingRestrict(std::string id) : Rule(std::move(id)) {}
  RuleDescription description() const override;
  Gate gate() const override { return Gate::None; }
  Severity defaultSeverity() const override { return Severity::Note; }
  bool enabledByDefault() const override { return false; }
  std::vector<Finding> checkPointerParams(const std::vector<PointerParam>& kernelParams,
                                          const RuleContext& ctx) const override;
};

}  // namespace coalesce::report
