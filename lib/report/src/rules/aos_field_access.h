// A field of an array of structures read by consecutive threads: the rest of each record is moved for nothing.
#pragma once

#include "coalesce/report/rule.h"

namespace coalesce::report {

class AosFieldAccess : public Rule {
 public:
  explicit AosFieldAccess(std::string id) : Rule(std::move(id)) {}
  RuleDescription description() const override;
  // A note by default: judged blind on public code (docs/precision.md), none of 24 was worth
  // a change (the thread uses the record's other fields; L1 serves the repeats).
  Severity defaultSeverity() const override { return Severity::Note; }
  Gate gate() const override { return Gate::Efficiency; }
  std::optional<Finding> checkAccess(const AccessSite& site, const RuleContext& ctx) const override;
};

}  // namespace coalesce::report
