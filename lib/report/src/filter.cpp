// The one filtering stage (see filter.h for the order of its steps).
#include "coalesce/report/filter.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "coalesce/model/arch.h"

#include "coalesce/report/rule_registry.h"
#include "coalesce/report/suppression.h"
#include "format.h"
#include "paths.h"

namespace coalesce::report {

namespace {

// Each source file is read and scanned for NOLINT once, however many findings it has.
class SourceIndex {
 public:
  explicit SourceIndex(const SourceReader& read) : read_(read) {}

  struct Entry {
    std::optional<std::string> text;
    SuppressionIndex nolint;
  };
  const Entry& of(const std::string& path) {
    auto [it, inserted] = files_.try_emplace(path);
    if (inserted) {
      it->second.text = read_(path);
      if (it->second.text) it->second.nolint = SuppressionIndex::parse(*it->second.text);
    }
    return it->second;
  }
  const std::map<std::string, Entry>& files() const { return files_; }

 private:
  const SourceReader& read_;
  std::map<std::string, Entry> files_;
};

bool belowThreshold(const Finding& f, const Config& config) {
  const Rule* rule = findRule(f.rule);
  if (!rule) return false;
  if (rule->gate() == Gate::Efficiency && f.efficiency) return *f.efficiency >= config.minEfficiency(f.rule);
  if (rule->gate() == Gate::ConflictDegree && f.conflictDegree)
    return *f.conflictDegree <= config.maxConflictDegree(f.rule);
  if (rule->gate() == Gate::DivergentShare && f.divergentShare)
    return *f.divergentShare < config.minDivergentShare(f.rule);
  if (rule->gate() == Gate::Occupancy && f.occupancy) return *f.occupancy >= config.minOccupancy(f.rule);
  if (rule->gate() == Gate::Reuse && f.reuse) return *f.reuse < config.minReuse(f.rule);
  return false;
}

// The findings one change of a kernel's block width fixes (Finding::fixedByBlockWidth), by
// kernel: each under MinCostShare alone can waste a large share together (TIGRE's TV kernels on
// 10x10x10 blocks, every access 6.84 sectors per request where 3.91 carry its bytes, 2 to 5 %
// each; blind panel 32 judged them worth fixing together). The costliest of a kernel's places is
// weighed with the sum of their shares, and says which others the same change fixes; the others
// keep their own share.
struct BlockWidthGroup {
  double share = 0;
  std::vector<const Finding*> members;
  std::string others;  // the other members' places, "91:32, 152:49" (read before any is moved)
};
std::map<const Finding*, BlockWidthGroup> weighBlockWidthFixes(const std::vector<Finding>& candidates) {
  std::map<std::pair<std::string, std::string>, BlockWidthGroup> byKernel;
  for (const Finding& f : candidates)
    if (f.fixedByBlockWidth && f.costShare && *f.costShare > 0) {
      BlockWidthGroup& g = byKernel[{f.loc.file, f.kernel}];
      g.share += *f.costShare;
      g.members.push_back(&f);
    }
  std::map<const Finding*, BlockWidthGroup> leads;
  for (auto& [kernel, g] : byKernel) {
    if (g.members.size() < 2) continue;
    const Finding* lead = *std::max_element(g.members.begin(), g.members.end(), [](const Finding* a, const Finding* b) {
      return *a->costShare < *b->costShare;
    });
    for (const Finding* other : g.members)
      if (other != lead)
        g.others += (g.others.empty() ? "" : ", ") + std::to_string(other->loc.line) + ":" + std::to_string(other->loc.column);
    leads[lead] = std::move(g);
  }
  return leads;
}

}  // namespace

void rankByCost(std::vector<Finding>& findings) {
  std::vector<Finding*> costed;
  for (Finding& f : findings)
    if (f.hasCost()) costed.push_back(&f);
  std::stable_sort(costed.begin(), costed.end(),
                   [](const Finding* a, const Finding* b) {
                     return a->costTimePerRun.value_or(0) > b->costTimePerRun.value_or(0);
                   });
  for (size_t i = 0; i < costed.size(); ++i) costed[i]->rank = static_cast<int>(i + 1);
}

std::vector<std::string> mainFilesOf(const AnalysisResult& analysis) {
  std::vector<std::string> files;
  for (const FileRecord& f : analysis.files) files.push_back(f.path);
  return files;
}

Result<FilterOutcome> filterFindings(std::vector<Finding> candidates, const FilterInputs& inputs) {
  FilterOutcome out;
  out.stats.candidates = candidates.size();
  std::set<std::string> mainFiles;
  for (const std::string& f : inputs.mainFiles) mainFiles.insert(detail::normalisePath(f));
  std::optional<BaselineMatcher> baseline;
  if (inputs.baseline) baseline.emplace(*inputs.baseline);
  SourceIndex sources(inputs.readSource);

  // Candidates in a fixed order, so that which of two identical findings a baseline
  // entry absorbs does not depend on the order the files were analysed in.
  std::stable_sort(candidates.begin(), candidates.end(), findingBefore);
  const std::map<const Finding*, BlockWidthGroup> blockWidthLeads = weighBlockWidthFixes(candidates);
  for (Finding& f : candidates) {
    Result<const Config*> config = inputs.configs->configFor(f.loc.file);
    if (!config) return config.error();
    const Config& c = **config;
    if (!c.enabled(f.rule)) {
      ++out.stats.disabled;
      continue;
    }
    if (belowThreshold(f, c)) {
      ++out.stats.belowThreshold;
      continue;
    }
    if (c.hidesPath(f.loc.file, mainFiles.count(detail::normalisePath(f.loc.file)) > 0)) {
      ++out.stats.excluded;
      continue;
    }
    const SourceIndex::Entry& source = sources.of(f.loc.file);
    if (source.nolint.suppresses(f.loc.line, f.loc.column, f.rule)) {
      ++out.stats.suppressed;
      continue;
    }
    if (inputs.changedLines && !inputs.changedLines->contains(f.loc.file, f.loc.line)) {
      ++out.stats.unchanged;
      continue;
    }
    if (f.lineText.empty() && source.text) f.lineText = std::string(lineOf(*source.text, f.loc.line));
    if (baseline && baseline->consume(f)) {
      ++out.stats.baselined;
      continue;
    }
    f.severity = c.severity(f.rule);
    if (f.severityCap && *f.severityCap < f.severity) {
      f.severity = *f.severityCap;
      if (!f.severityCapReason.empty()) f.notes.push_back(f.severityCapReason);
    }
    // A conflict of two ways or less at most doubles the access's wavefronts, which matters only
    // where the kernel is bound by shared-memory throughput (docs/findings.md, "Levels").
    if (f.severity == Severity::Warning && f.conflictDegree && *f.conflictDegree <= c.noteUpToDegree(f.rule) + 1e-9) {
      f.severity = Severity::Note;
      f.notes.push_back(fmt::format("a note, not a warning: a {}-way conflict at most doubles the access's "
                                    "wavefronts, which slows a kernel only where shared-memory throughput bounds it "
                                    "(NoteUpToDegree {}; {}.NoteUpToDegree: 1 makes it a warning)",
                                    detail::number(*f.conflictDegree), detail::number(c.noteUpToDegree(f.rule)),
                                    f.rule));
    }
    // Waste that is negligible next to the kernel's memory time is worth knowing, not gating on.
    // A share under its threshold makes the warning a note that says which share and why.
    const auto noteUnder = [&f](const std::optional<double>& share, double threshold, const std::string& why) {
      if (f.severity != Severity::Warning || !share || *share >= threshold) return;
      f.severity = Severity::Note;
      f.notes.push_back(fmt::format("a note, not a warning: it wastes {} of {}", detail::percent(*share), why));
    };
    std::optional<double> share = f.costShare;
    if (auto lead = blockWidthLeads.find(&f); lead != blockWidthLeads.end() && f.severity == Severity::Warning) {
      const BlockWidthGroup& g = lead->second;
      const size_t others = g.members.size() - 1;
      f.notes.push_back(fmt::format("with the {} other {} of '{}' the block's width spreads over short rows the same "
                                    "way (at {}), {} of the kernel's memory time: one change of the launch's block "
                                    "fixes them together",
                                    others, others == 1 ? "access" : "accesses", f.kernel, g.others,
                                    detail::percent(g.share)));
      share = g.share;
    }
    noteUnder(share, c.minCostShare(),
              fmt::format("the kernel's memory time, under MinCostShare ({})", detail::percent(c.minCostShare())));
    // A kernel whose arithmetic outlasts its memory traffic: the waste may be a large part of
    // the memory time and none of the kernel's (lib/report/src/cost.cpp, `setTimeShare`).
    if (f.severity == Severity::Warning && f.timeShare && !f.timeBasis.empty() && *f.timeShare < c.minCostShare()) {
      f.severity = Severity::Note;
      const std::string gain = *f.timeShare <= 0 ? std::string("a fix would not shorten the kernel")
                                                  : fmt::format("a fix would shorten the kernel by {} at most, under "
                                                                "MinCostShare ({})",
                                                                detail::percent(*f.timeShare),
                                                                detail::percent(c.minCostShare()));
      f.notes.push_back(fmt::format("a note, not a warning: {}: {}", gain, f.timeBasis));
    }
    // The same next to the program: a one-off setup kernel, a merge pass over a few partial
    // results, a single-block step beside kernels the host launches over the whole data or
    // in a loop (lib/report/src/cost.cpp, `setProgramShare`).
    noteUnder(f.programShare, c.minProgramShare(),
              fmt::format("the memory time of the kernels its file launches, per run of the program, under "
                          "MinProgramShare ({}); {}",
                          detail::percent(c.minProgramShare()), f.programBasis));
    // An absolute floor: what the finding wastes per run of the program, counted only from what
    // the code fixes (the grid, the loops' trips, the launches per run), is less than launching one
    // more kernel costs: a demo's single launch over one small image, a setup step. Where any of
    // those counts is a guess the floor does not apply: the real sizes could be far larger.
    if (f.severity == Severity::Warning && f.shownWasteSeconds && *f.shownWasteSeconds * 1e6 < c.minWastePerRun()) {
      f.severity = Severity::Note;
      f.notes.push_back(fmt::format(
          "a note, not a warning: it wastes {} of memory time per run of the program, under MinWastePerRun ({} us; "
          "the default, {} us, is what launching one more kernel costs on the H200), counted only from sizes the "
          "code fixes ({})",
          detail::microseconds(*f.shownWasteSeconds), detail::number(c.minWastePerRun()),
          detail::number(model::defaultArch().launchSeconds * 1e6), f.shownWasteBasis));
    }
    if (f.severity == Severity::Warning && c.warningAsError(f.rule)) f.severity = Severity::Error;
    out.findings.push_back(std::move(f));
  }

  // Malformed suppressions are errors of their own, so a typo cannot hide a finding
  // silently (clang-tidy's clang-tidy-nolint).
  for (const auto& [path, entry] : sources.files())
    for (const NoLintProblem& p : entry.nolint.problems()) {
      if (inputs.changedLines && !inputs.changedLines->contains(path, p.line)) {
        ++out.stats.unchanged;
        continue;
      }
      Finding e;
      e.rule = std::string(kNoLintRuleId);
      e.severity = Severity::Error;
      e.loc = {path, p.line, p.column};
      e.message = p.message;
      if (entry.text) e.lineText = std::string(lineOf(*entry.text, p.line));
      out.findings.push_back(std::move(e));
    }
  std::stable_sort(out.findings.begin(), out.findings.end(), findingBefore);
  rankByCost(out.findings);
  return out;
}

}  // namespace coalesce::report
