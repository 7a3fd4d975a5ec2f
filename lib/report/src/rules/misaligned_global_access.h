// Contiguous global accesses that pay extra sectors only because the run starts off a sector boundary.
#pragma once

#include "coalesce/report/rule.h"

namespace coalesce::report {

class MisalignedGlobalAccess : public Rule {
 public:
  explicit MisalignedGlobalAccess(std::string id) : Rule(std::move(id)) {}
  RuleDescription description() const override;
  // A note by default: judged blind on public code (docs/precision.md), none of 28 was worth
  // a change (L1 serves the neighbouring warp's sector; layouts fixed by the data).
  Severity defaultSeverity() const override { return Severity::Note; }
  Gate gate() const override { return Gate::Efficiency; }
  // A contiguous run loses at most one sector per run, so eta stays at or above 80% for
  // 4-byte elements (5 sectors for 4) and the global 0.8 would never show it; this rule
  // therefore has its own, stricter default.
  std::optional<double> defaultThreshold() const override { return 0.95; }
  std::optional<Finding> checkAccess(const AccessSite& site, const RuleContext& ctx) const override;
};

}  // namespace coalesce::report
