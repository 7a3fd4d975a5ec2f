// Options layering and the resolved Config the filter stage queries.
#include "coalesce/report/config.h"

#include <fmt/format.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Regex.h>

#include "coalesce/model/arch.h"
#include "coalesce/report/glob.h"
#include "coalesce/report/rule_registry.h"
#include "config_checks.h"
#include "paths.h"

namespace coalesce::report {

struct CompiledPatterns {
  GlobList checks;
  GlobList warningsAsErrors;
  llvm::Regex headerFilter;
};

void Options::mergeFrom(const Options& later) {
  auto take = [](auto& mine, const auto& theirs) {
    if (theirs) mine = theirs;
  };
  take(checks, later.checks);
  take(warningsAsErrors, later.warningsAsErrors);
  take(minEfficiency, later.minEfficiency);
  take(maxConflictDegree, later.maxConflictDegree);
  take(minCostShare, later.minCostShare);
  take(minProgramShare, later.minProgramShare);
  take(minWastePerRun, later.minWastePerRun);
  take(headerFilter, later.headerFilter);
  take(systemHeaders, later.systemHeaders);
  take(exclude, later.exclude);
  for (const auto& [key, value] : later.checkOptions) checkOptions[key] = value;
}

bool Options::empty() const {
  return !checks && !warningsAsErrors && !minEfficiency && !maxConflictDegree && !minCostShare && !minProgramShare && !minWastePerRun && !headerFilter && !systemHeaders &&
         !exclude && checkOptions.empty();
}

namespace {

Options defaultOptions() {
  Options o;
  std::string checks = "*";
  for (const auto& r : allRules())
    if (!r->enabledByDefault()) checks += ",-" + r->id();
  o.checks = checks;
  o.warningsAsErrors = "";
  o.minEfficiency = 0.8;
  o.maxConflictDegree = 1.0;
  // A fix that removes less than 5 % of a kernel's traffic gains less than 5 % of its memory
  // time even when the kernel is bound by memory: within the run-to-run spread of a timing,
  // not worth gating a build on (docs/findings.md, "Levels").
  o.minCostShare = 0.05;
  // The program's share rests on estimated launch counts (host loops whose trip counts the code
  // does not show) and grids, so it demotes only what is clearly negligible: docs/findings.md.
  o.minProgramShare = 0.02;
  // An absolute floor beside the two shares: a waste that, counted only from what the program
  // fixes, takes less per run than launching one more kernel (model::Arch::launchSeconds, measured
  // on the H200) is a demo's or a setup step's, whatever its share (docs/findings.md, "Levels").
  o.minWastePerRun = model::defaultArch().launchSeconds * 1e6;
  o.headerFilter = ".*";
  o.systemHeaders = false;
  o.exclude = std::vector<std::string>{"third_party/*", "*/third_party/*"};
  return o;
}

std::string firstError(const Options& o) {
  using namespace detail;
  for (const auto& [key, value] : o.checkOptions)
    if (auto e = checkOptionError(key, value); !e.empty()) return e;
  if (auto e = ruleListError("Checks", *o.checks); !e.empty()) return e;
  if (auto e = ruleListError("WarningsAsErrors", *o.warningsAsErrors); !e.empty()) return e;
  if (auto e = minEfficiencyError(*o.minEfficiency); !e.empty()) return e;
  if (auto e = maxConflictDegreeError(*o.maxConflictDegree); !e.empty()) return e;
  if (auto e = minCostShareError(*o.minCostShare); !e.empty()) return e;
  if (auto e = shareError("MinProgramShare", *o.minProgramShare); !e.empty()) return e;
  if (auto e = microsecondsError("MinWastePerRun", *o.minWastePerRun); !e.empty()) return e;
  return headerFilterError(*o.headerFilter);
}

const std::string* optionValue(const Options& o, std::string_view rule, std::string_view option) {
  auto it = o.checkOptions.find(fmt::format("{}.{}", rule, option));
  return it == o.checkOptions.end() ? nullptr : &it->second;
}

}  // namespace

Result<Config> Config::resolve(const Options& layered, std::string source) {
  Config c;
  c.values_ = defaultOptions();
  c.values_.mergeFrom(layered);
  c.source_ = std::move(source);
  if (std::string e = firstError(c.values_); !e.empty()) return ReportError{"invalid settings (" + c.source_ + "): " + e};
  auto p = std::make_shared<CompiledPatterns>();
  p->checks = GlobList(*c.values_.checks);
  p->warningsAsErrors = GlobList(*c.values_.warningsAsErrors);
  p->headerFilter = llvm::Regex(*c.values_.headerFilter);
  c.patterns_ = std::move(p);
  return c;
}

Config Config::defaults() { return *resolve({}, "defaults"); }

bool Config::enabled(std::string_view rule) const { return patterns_->checks.contains(rule); }

bool Config::warningAsError(std::string_view rule) const { return patterns_->warningsAsErrors.contains(rule); }

Severity Config::severity(std::string_view rule) const {
  if (const std::string* v = optionValue(values_, rule, "Severity")) return *parseSeverity(*v);
  const Rule* r = findRule(rule);
  return r ? r->defaultSeverity() : Severity::Warning;
}

// A rule's own option wins, then the rule's own default, then the global value: a rule
// with a stricter default keeps it when only the global value is set.
double Config::minEfficiency(std::string_view rule) const {
  if (const std::string* v = optionValue(values_, rule, "MinEfficiency")) return std::stod(*v);
  const Rule* r = findRule(rule);
  if (r && r->gate() == Gate::Efficiency && r->defaultThreshold()) return *r->defaultThreshold();
  return *values_.minEfficiency;
}

double Config::maxConflictDegree(std::string_view rule) const {
  if (const std::string* v = optionValue(values_, rule, "MaxConflictDegree")) return std::stod(*v);
  const Rule* r = findRule(rule);
  if (r && r->gate() == Gate::ConflictDegree && r->defaultThreshold()) return *r->defaultThreshold();
  return *values_.maxConflictDegree;
}

double Config::noteUpToDegree(std::string_view rule) const {
  if (const std::string* v = optionValue(values_, rule, "NoteUpToDegree")) return std::stod(*v);
  return kNoteUpToConflictDegree;
}

double Config::minDivergentShare(std::string_view rule) const {
  if (const std::string* v = optionValue(values_, rule, "MinDivergentShare")) return std::stod(*v);
  const Rule* r = findRule(rule);
  if (r && r->gate() == Gate::DivergentShare && r->defaultThreshold()) return *r->defaultThreshold();
  return 0.0;
}

double Config::minOccupancy(std::string_view rule) const {
  if (const std::string* v = optionValue(values_, rule, "MinOccupancy")) return std::stod(*v);
  const Rule* r = findRule(rule);
  if (r && r->gate() == Gate::Occupancy && r->defaultThreshold()) return *r->defaultThreshold();
  return 0.0;
}

double Config::minReuse(std::string_view rule) const {
  if (const std::string* v = optionValue(values_, rule, "MinReuse")) return std::stod(*v);
  const Rule* r = findRule(rule);
  if (r && r->gate() == Gate::Reuse && r->defaultThreshold()) return *r->defaultThreshold();
  return 1.0;
}

bool Config::hidesPath(const std::string& path, bool isMainFile) const {
  const std::string p = detail::normalisePath(path);
  for (const std::string& glob : *values_.exclude)
    if (globMatch(glob, p)) return true;
  if (!*values_.systemHeaders && detail::isSystemPath(p)) return true;
  return !isMainFile && !patterns_->headerFilter.match(p);
}

}  // namespace coalesce::report
