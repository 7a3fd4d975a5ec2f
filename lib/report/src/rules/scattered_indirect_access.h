// Global accesses through loaded indices (a[idx[i]]): anywhere from one sector per warp to one per lane.
#pragma once

#include "coalesce/report/rule.h"

namespace coalesce::report {

class ScatteredIndirectAccess : public Rule {
 public:
  explicit ScatteredIndirectAccess(std::string id) : Rule(std::move(id)) {}
  RuleDescription description() const override;
  Gate gate() const override { return Gate::Efficiency; }
  // A gather through an index array is usually what the data structure makes unavoidable
  // (sparse matrices, meshes, trees, neighbour lists): a note unless Severity says otherwise.
  Severity defaultSeverity() const override { return Severity::Note; }
  std::optional<Finding> checkAccess(const AccessSite& site, const RuleContext& ctx) const override;
};

}  // namespace coalesce::report
