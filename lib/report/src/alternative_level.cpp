#include "alternative_level.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <string>

#include <fmt/format.h>

namespace coalesce::report::detail {

namespace {

// An alternative whose finding of the rule costs less than this share of what the capped one
// costs (each against its own kernel's traffic) does not waste it: a naive variant wastes most
// of its traffic, a fixed one at most a remainder.
constexpr double kMuchLowerCost = 0.25;

std::string fileName(const std::string& where) {
  const size_t slash = where.find_last_of('/');
  return slash == std::string::npos ? where : where.substr(slash + 1);
}

}  // namespace

void capAlternativesDoneBetter(std::vector<Finding>& findings, const AnalysisResult& analysis) {
  // Per kernel and rule, the largest share of its kernel's traffic a finding wastes (-1: a
  // finding whose cost is not known, which counts as wasting).
  // Kept per file as well as per name: a run over a tree holds several programs, and two
  // samples' `transposeNaive` are different kernels with different choices. A kernel is looked
  // up in the finding's file first, and by name alone only where that file defines none of
  // that name (a helper in a header, an arm's wrapper in another file).
  std::map<std::tuple<std::string, std::string, std::string>, double> worst;  // (file, kernel, rule)
  for (const Finding& f : findings) {
    std::set<std::string> names(f.instantiations.begin(), f.instantiations.end());
    if (!f.kernel.empty()) names.insert(f.kernel);
    for (const std::string& k : names)
      for (const std::string& file : {f.loc.file, std::string()}) {
        double& w = worst.try_emplace({file, k, f.rule}, 0.0).first->second;
        w = f.costShare && w >= 0 ? std::max(w, *f.costShare) : -1;
      }
  }
  const auto worstOf = [&](const std::string& file, const std::string& kernel, const std::string& rule) {
    auto it = worst.find({file, kernel, rule});
    return it != worst.end() ? it : worst.find({std::string(), kernel, rule});
  };
  std::map<std::string, std::vector<const KernelRecord*>> records;
  for (const KernelRecord& k : analysis.kernels) records[k.name].push_back(&k);
  // The records of `name` defined in `file`, or every record of it where `file` defines none.
  const auto recordsOf = [&](const std::string& name, const std::string& file) {
    std::vector<const KernelRecord*> out;
    auto it = records.find(name);
    if (it == records.end()) return out;
    for (const KernelRecord* k : it->second)
      if (k->loc.file == file) out.push_back(k);
    return out.empty() ? it->second : out;
  };
  const auto analysed = [&](const std::string& name, const std::string& file) {
    const std::vector<const KernelRecord*> of = recordsOf(name, file);
    return !of.empty() &&
           std::all_of(of.begin(), of.end(), [](const KernelRecord* k) { return k->status == Status::Analysed; });
  };

  for (Finding& f : findings) {
    if (f.kernel.empty() || f.severity == Severity::Note) continue;
    if (f.severityCap && *f.severityCap == Severity::Note) continue;
    const double own = f.costShare.value_or(0);
    // The alternative arm that does not waste this, for every record of the kernel (and of
    // each instantiation the finding covers) the host launches.
    std::set<std::string> names(f.instantiations.begin(), f.instantiations.end());
    names.insert(f.kernel);
    const KernelRecord* shown = nullptr;
    const ChoiceArm* better = nullptr;
    bool all = true;
    for (const std::string& name : names) {
      const std::vector<const KernelRecord*> of = recordsOf(name, f.loc.file);
      if (of.empty()) {
        all = false;
        break;
      }
      for (const KernelRecord* k : of) {
        if (k->launchesPerRun <= 0 && k->choice.arms == 0) continue;  // not launched in that unit
        const ChoiceArm* clean = nullptr;
        for (const ChoiceArm& arm : k->choice.others) {
          const bool wastes = std::any_of(arm.kernels.begin(), arm.kernels.end(), [&](const std::string& other) {
            if (!analysed(other, f.loc.file)) return true;
            auto w = worstOf(f.loc.file, other, f.rule);
            return w != worst.end() && (w->second < 0 || w->second >= kMuchLowerCost * own);
          });
          if (!wastes && !arm.kernels.empty()) {
            clean = &arm;
            break;
          }
        }
        if (!clean) {
          all = false;
          break;
        }
        if (!shown) {
          shown = k;
          better = clean;
        }
      }
      if (!all) break;
    }
    if (!all || !shown) continue;
    std::string kernels;
    for (const std::string& k : better->kernels) kernels += (kernels.empty() ? "" : ", ") + k;
    const std::string alternative =
        better->kernels.size() == 1 && better->kernels.front() == better->call
            ? fmt::format("`{}`", better->call)
            : fmt::format("`{}` (launching {})", better->call, kernels);
    f.severityCap = Severity::Note;
    // An empty selector: nothing chooses, the host runs the variants in turn on the same data
    // (lib/analysis/src/launch_alternatives.cpp, findVariantsRunInTurn).
    const std::string how = shown->choice.selector.empty()
                                ? std::string("variants the host runs in turn")
                                : "alternatives the host selects at run time by " + shown->choice.selector;
    f.severityCapReason = fmt::format(
        "a note, not a warning: {} is one of {} {} ({}) for the same job ({}); {} does not waste this. A variant "
        "kept for comparison: if the program relies on this one, that one shows the fix",
        f.kernel, shown->choice.arms, how, fileName(shown->choice.where), shown->choice.evidence, alternative);
  }
}

}  // namespace coalesce::report::detail
