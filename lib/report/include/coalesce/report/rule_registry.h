// The one table of rules and the pass that runs them over an analysis result.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "coalesce/model/arch.h"
#include "coalesce/report/finding.h"
#include "coalesce/records/records.h"
#include "coalesce/report/rule.h"

namespace coalesce::report {

// Findings about the suppression comments themselves (an unmatched NOLINTBEGIN), as
// clang-tidy's "clang-tidy-nolint". Not a rule: it cannot be disabled or suppressed.
inline constexpr std::string_view kNoLintRuleId = "coalesce-lint-nolint";

// Every rule, in registration order, each instantiated once (rules are stateless).
const std::vector<std::unique_ptr<Rule>>& allRules();
const Rule* findRule(std::string_view id);
std::vector<std::string> ruleIds();

// Description of a rule id, including kNoLintRuleId (for SARIF's rules table).
RuleDescription describeRule(std::string_view id);

// Runs every rule on every record: access sites, branches, barriers, and the pointer
// parameters of each kernel. The access rules' conditions are disjoint, so a bad access
// yields one finding, whatever the thresholds; the filter stage decides which candidates
// are shown. Candidates come out in findingBefore order.
std::vector<Finding> runRules(const AnalysisResult& analysis, const model::Arch& arch);

}  // namespace coalesce::report
