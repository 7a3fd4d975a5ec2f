// The one table of rules (clang-tidy: MiscTidyModule::addCheckFactories registers
// StaticAssertCheck as "misc-static-assert"). The id given here is the rule's only name:
// suppression key, SARIF ruleId, option prefix and docs/rules/<id>.md.
#include "coalesce/report/rule_registry.h"

#include "cost.h"
#include "data_guard_level.h"
#include "guessed_value_level.h"
#include "iteration_reuse_note.h"
#include "launch_level.h"
#include "setup_level.h"
#include "orientation_level.h"
#include "alternative_level.h"
#include "variant_level.h"
#include "merge_findings.h"
#include "barrier_groups.h"

#include <algorithm>
#include <iterator>
#include <map>

#include "rules/aos_field_access.h"
#include "rules/barrier_in_divergent_code.h"
#include "rules/divergent_branch.h"
#include "rules/inverted_thread_axes.h"
#include "rules/misaligned_global_access.h"
#include "rules/missing_restrict.h"
#include "rules/occupancy_limited.h"
#include "rules/scattered_indirect_access.h"
#include "rules/shared_bank_conflict.h"
#include "rules/shared_tiling_opportunity.h"
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
  // Control flow
  rules.registerRule<DivergentBranch>("divergent-branch");
  rules.registerRule<BarrierInDivergentCode>("barrier-in-divergent-code");
  // Hints, off by default (enabledByDefault() == false)
  rules.registerRule<MissingRestrict>("missing-restrict");
  rules.registerRule<SharedTilingOpportunity>("shared-tiling-opportunity");
  rules.registerRule<OccupancyLimited>("occupancy-limited");
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

namespace {

// The pointer parameters of each kernel together, kernels in the order of the records.
std::vector<std::vector<PointerParam>> paramsByKernel(const std::vector<PointerParam>& params) {
  std::vector<std::vector<PointerParam>> groups;
  std::map<std::pair<std::string, std::string>, size_t> index;
  for (const PointerParam& p : params) {
    auto [it, inserted] = index.try_emplace({p.loc.file, p.kernel}, groups.size());
    if (inserted) groups.emplace_back();
    groups[it->second].push_back(p);
  }
  return groups;
}

}  // namespace

std::vector<Finding> runRules(const AnalysisResult& analysis, const model::Arch& arch) {
  const RuleContext ctx{arch, &analysis};
  std::vector<Finding> out;
  for (const AccessSite& site : analysis.accesses)
    for (const auto& rule : allRules())
      if (auto f = rule->checkAccess(site, ctx)) out.push_back(std::move(*f));

  for (const auto& rule : allRules()) {
    for (const BranchSite& site : analysis.branches)
      if (auto f = rule->checkBranch(site, ctx)) out.push_back(std::move(*f));
    for (const BarrierSite& site : analysis.barriers)
      if (auto f = rule->checkBarrier(site, ctx)) out.push_back(std::move(*f));
    for (const KernelRecord& kernel : analysis.kernels)
      if (auto f = rule->checkKernel(kernel, ctx)) out.push_back(std::move(*f));
    for (const std::vector<PointerParam>& kernel : paramsByKernel(analysis.pointerParams))
      for (Finding& f : rule->checkPointerParams(kernel, ctx)) out.push_back(std::move(f));
  }
  // What each costs per launch; then, since the instantiations of a template kernel repeat
  // every access, branch, barrier and parameter, one finding per place and rule, naming what
  // it covers and adding up what its instances cost; then the notes that say so.
  detail::addCosts(out, analysis, arch);
  std::vector<Finding> merged = mergeByPlace(std::move(out), analysis);
  detail::mergeBarriersOfOneGuard(merged, analysis);
  detail::addCostNotes(merged, analysis, arch);
  detail::addIterationReuseNotes(merged, analysis, arch);
  detail::capMinorityOrientation(merged, analysis);
  detail::capVariantsFixedInFile(merged, analysis, arch);
  detail::capAlternativesDoneBetter(merged, analysis);
  detail::capUnlaunchedKernels(merged, analysis);
  detail::capSetupKernels(merged, analysis);
  detail::capPointerTableKernels(merged, analysis);
  detail::capDataGuardedAccesses(merged, analysis);
  detail::capGuessedValueAccesses(merged, analysis);
  detail::capStepsFixedBeside(merged, analysis);
  detail::capNamedNaiveVariants(merged, analysis);  // last: a more specific reason stays
  return merged;
}

}  // namespace coalesce::report
