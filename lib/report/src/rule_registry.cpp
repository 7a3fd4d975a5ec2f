// The one table of rules (clang-tidy: MiscTidyModule::addCheckFactories registers
// StaticAssertCheck as "misc-static-assert"). The id given here is the rule's only name:
// suppression key, SARIF ruleId, option prefix and docs/rules/<id>.md.
#include "coalesce/report/rule_registry.h"

#include <algorithm>

#include "rules/aos_field_access.h"
#include "rules/inverted_thread_axes.h"
#include "rules/misaligned_global_access.h"
#include "rules/scattered_indirect_access.h"
#include "rules/shared_bank_conflict.h"
#include "rules/uncoalesced_global_access.h"
#include "rules/wide_shared_access_conflict.h"

namespace coalesce::report {

namespace {

class RuleFactories {
 public:
  template <class R>
  void registerRule(std::string id) {
    rules_.push_back(std::make_unique<R>(std::move(id)));
  }
  std::vector<std::unique_ptr<Rule>> take() { return std::move(rules_); }

 private:
  std::vector<std::unique_ptr<Rule>> rules_;
};

std::vector<std::unique_ptr<Rule>> buildTable() {
  RuleFactories rules;
  // Global memory
  rules.registerRule<UncoalescedGlobalAccess>("uncoalesced-global-access");
  rules.registerRule<MisalignedGlobalAccess>("misaligned-global-access");
  rules.registerRule<AosFieldAccess>("aos-field-access");
  rules.registerRule<InvertedThreadAxes>("inverted-thread-axes");
  rules.registerRule<ScatteredIndirectAccess>("scattered-indirect-access");
  // Shared memory
  rules.registerRule<SharedBankConflict>("shared-bank-conflict");
  rules.registerRule<WideSharedAccessConflict>("wide-shared-access-conflict");
  // Control flow (issue 9) registers here: divergent-branch, barrier-in-divergent-code,
  // and missing-restrict (enabledByDefault() == false).
  return rules.take();
}

}  // namespace

const std::vector<std::unique_ptr<Rule>>& allRules() {
  static const std::vector<std::unique_ptr<Rule>> table = buildTable();
  return table;
}

const Rule* findRule(std::string_view id) {
  for (const auto& r : allRules())
    if (r->id() == id) return r.get();
  return nullptr;
}

std::vector<std::string> ruleIds() {
  std::vector<std::string> ids;
  for (const auto& r : allRules()) ids.push_back(r->id());
  return ids;
}

RuleDescription describeRule(std::string_view id) {
  if (const Rule* r = findRule(id)) return r->description();
  if (id == kNoLintRuleId)
    return {"Unmatched NOLINTBEGIN or NOLINTEND comment",
            "A NOLINTBEGIN needs a later NOLINTEND with the same rule list, and a NOLINTEND an earlier "
            "NOLINTBEGIN; an unmatched one suppresses nothing.",
            "Pair every NOLINTBEGIN(rules) with a NOLINTEND(rules) naming the same rules."};
  return {std::string(id), std::string(id), std::string(id)};
}

std::vector<Finding> runRules(const AnalysisResult& analysis, const model::Arch& arch) {
  const RuleContext ctx{arch};
  std::vector<Finding> out;
  for (const AccessSite& site : analysis.accesses)
    for (const auto& rule : allRules())
      if (auto f = rule->checkAccess(site, ctx)) out.push_back(std::move(*f));
  std::stable_sort(out.begin(), out.end(), findingBefore);
  return out;
}

}  // namespace coalesce::report
