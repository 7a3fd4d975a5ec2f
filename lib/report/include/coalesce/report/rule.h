// The base of every rule: one class per rule, one stable kebab-case id given by the
// registry (clang-tidy's ClangTidyCheck, whose name comes from registerCheck<T>("id")).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "coalesce/model/arch.h"
#include "coalesce/report/finding.h"
#include "coalesce/records/records.h"

namespace coalesce::report {

// Which figure a rule's threshold compares; it decides the rule's options.
enum class Gate {
  Efficiency,      // finding kept when eta < <rule>.MinEfficiency
  ConflictDegree,  // finding kept when degree > <rule>.MaxConflictDegree
  DivergentShare,  // finding kept when the share of split warp requests >= <rule>.MinDivergentShare
  Occupancy,       // finding kept when the theoretical occupancy < <rule>.MinOccupancy
  Reuse,           // finding kept when the block's reuse factor >= <rule>.MinReuse
  None,            // always kept (rules whose findings are not figures)
};

struct RuleDescription {
  std::string shortDescription;  // one line: SARIF shortDescription
  std::string fullDescription;   // a paragraph: SARIF fullDescription
  std::string help;              // how to fix, as plain text: SARIF help.text
};

struct RuleContext {
  const model::Arch& arch;
  // The whole result, for rules that relate one record to others (a branch to the loop
  // around it and the shared accesses in that loop). Null when a rule is run on a lone record.
  const AnalysisResult* analysis = nullptr;
};

class Rule {
 public:
  virtual ~Rule() = default;
  Rule(const Rule&) = delete;
  Rule& operator=(const Rule&) = delete;

  const std::string& id() const { return id_; }
  virtual RuleDescription description() const = 0;
  virtual Gate gate() const = 0;
  virtual Severity defaultSeverity() const { return Severity::Warning; }
  // nullopt: the rule follows the global MinEfficiency / MaxConflictDegree (MinDivergentShare
  // has no global value: 0).
  virtual std::optional<double> defaultThreshold() const { return std::nullopt; }
  // Rules that are hints (missing-restrict, later) are off unless named in Checks.
  virtual bool enabledByDefault() const { return true; }

  // Each record kind has its hook, with the default "nothing to say"; a rule overrides the
  // ones it is about. Thresholds, severity and suppressions are not the rule's business:
  // the filter stage applies them.
  // One access site: at most one finding.
  virtual std::optional<Finding> checkAccess(const AccessSite& site, const RuleContext& ctx) const {
    return std::nullopt;
  }
  // One branch (if, loop, switch, ?:): at most one finding.
  virtual std::optional<Finding> checkBranch(const BranchSite& site, const RuleContext& ctx) const {
    return std::nullopt;
  }
  // One block-wide barrier: at most one finding.
  virtual std::optional<Finding> checkBarrier(const BarrierSite& site, const RuleContext& ctx) const {
    return std::nullopt;
  }
  // One kernel (its occupancy): at most one finding.
  virtual std::optional<Finding> checkKernel(const KernelRecord& kernel, const RuleContext& ctx) const {
    return std::nullopt;
  }
  // The pointer parameters of one kernel together (aliasing is a relation between them).
  virtual std::vector<Finding> checkPointerParams(const std::vector<PointerParam>& kernelParams,
                                                  const RuleContext& ctx) const {
    return {};
  }

 protected:
  explicit Rule(std::string id) : id_(std::move(id)) {}

 private:
  std::string id_;
};

// The option names a rule accepts under "<rule-id>.<Option>": Severity, and the
// threshold its gate compares (MinEfficiency, MaxConflictDegree, MinDivergentShare,
// MinOccupancy or MinReuse).
std::vector<std::string> optionNames(const Rule& rule);

}  // namespace coalesce::report
