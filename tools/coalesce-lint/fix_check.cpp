#include "fix_check.h"

#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>

#include "coalesce/report/fixes.h"
#include "coalesce/report/rule_registry.h"

namespace coalesce::cli {

using report::Finding;
using report::SourceFix;

namespace {

// The key the analysis finds an in-memory copy under (analyze.cpp normalises the same way).
std::string absoluteKey(const std::string& path) {
  std::error_code ec;
  const auto p = std::filesystem::absolute(path, ec);
  return (ec ? std::filesystem::path(path) : p).lexically_normal().string();
}

// What "worse" means for a finding: its gated figure, larger is worse (merge_findings.cpp).
double badness(const Finding& f) {
  if (f.efficiency) return 1.0 - *f.efficiency;
  if (f.conflictDegree) return *f.conflictDegree;
  if (f.divergentShare) return *f.divergentShare;
  return 0;
}

// One distinct set of edits of one file, and the shown findings that propose it.
struct Candidate {
  std::string file;
  std::vector<TextEdit> edits;
  std::string description;
  std::vector<Finding*> findings;
  bool decided = false;
};

// One file's state before any edit.
struct FileBefore {
  std::string text;
  std::vector<Finding> findings;  // every rule's candidates before the filter stage
  int hostErrors = 0;
  std::set<std::string> failedKernels;
  std::vector<Candidate*> candidates;
};

using PlaceKey = std::tuple<std::string, unsigned, unsigned>;  // rule, line, column

// Why the edited file is worse off than the original, or "" when it is not; the findings
// of `targets` must be gone.
std::string judge(const FileBefore& before, const std::vector<Candidate*>& targets, const std::string& file,
                  const AnalysisResult& after, const model::Arch& arch, std::string& figures) {
  std::vector<TextEdit> edits;
  for (const Candidate* c : targets) edits.insert(edits.end(), c->edits.begin(), c->edits.end());
  const report::EditedText edited = report::applyEdits(before.text, edits);
  if (!edited.conflicts.empty()) return "its edit overlaps another fix's";

  for (const FileRecord& f : after.files)
    if (f.path == file) {
      if (f.status == Status::Failed) return "the edited file could not be analysed: " + f.error;
      if (f.hostErrors > before.hostErrors)
        return "the edited file has compiler errors it did not have" +
               (f.diagnostics.empty() ? std::string() : ": " + f.diagnostics.front());
    }
  for (const KernelRecord& k : after.kernels)
    if (k.loc.file == file && k.status == Status::Failed && !before.failedKernels.count(k.name))
      return "kernel '" + k.name + "' could no longer be analysed: " + k.reason;

  std::map<PlaceKey, const Finding*> old;
  std::set<PlaceKey> targeted;
  for (const Finding& f : before.findings) {
    const SourceLocation at = report::mapThroughEdits(f.loc, before.text, edited.applied);
    old[{f.rule, at.line, at.column}] = &f;
  }
  for (const Candidate* c : targets)
    for (const Finding* f : c->findings) {
      const SourceLocation at = report::mapThroughEdits(f->loc, before.text, edited.applied);
      targeted.insert({f->rule, at.line, at.column});
    }
  for (const Finding& g : report::runRules(after, arch)) {
    if (g.loc.file != file) continue;
    const PlaceKey key{g.rule, g.loc.line, g.loc.column};
    if (targeted.count(key)) return fmt::format("the finding remains: {}", g.message);
    auto it = old.find(key);
    if (it == old.end())
      return fmt::format("a new finding appears at line {} [{}]: {}", g.loc.line, g.rule, g.message);
    const Finding& b = *it->second;
    if (badness(g) > badness(b) + 1e-9 || g.costBytes() > b.costBytes() * (1 + 1e-9) + 1e-9)
      return fmt::format("the finding at line {} [{}] gets worse: {}", g.loc.line, g.rule, g.message);
  }
  // The figures the fixed access has now, for the note (the first target's access).
  figures.clear();
  if (targets.size() == 1 && !targets.front()->findings.empty() && targets.front()->findings.front()->access) {
    const Finding& f = *targets.front()->findings.front();
    const SourceLocation at = report::mapThroughEdits(f.loc, before.text, edited.applied);
    for (const AccessSite& a : after.accesses)
      if (a.loc.file == file && a.loc.line == at.line && a.loc.column == at.column && a.figures.shared) {
        const double now = a.figures.shared->aligned.wavefronts;
        figures = fmt::format(" (the access now needs {:.3g} wavefront{} per request, ideal {:.3g})", now,
                              now == 1.0 ? "" : "s", a.figures.shared->aligned.idealWavefronts);
        break;
      }
  }
  return {};
}

void decide(Candidate& c, bool offered, const std::string& detail, FixCheckStats& stats) {
  c.decided = true;
  for (Finding* f : c.findings) {
    f->sourceFix->check = offered ? SourceFix::Check::Offered : SourceFix::Check::Withheld;
    f->sourceFix->verdict =
        offered ? fmt::format("fix checked: {}; the file, analysed again with that edit, no longer has this finding{} "
                              "and no finding of it appears or gets worse (--fix applies it)",
                              c.description, detail)
                : fmt::format("fix withheld: {} was analysed again and {}", c.description, detail);
    f->notes.push_back(f->sourceFix->verdict);
  }
  ++(offered ? stats.offered : stats.withheld);
}

}  // namespace

FixCheckStats checkFixes(std::vector<Finding>& shown, const AnalysisResult& analysis,
                         const analysis::AnalysisRequest& request, const model::Arch& arch,
                         const report::SourceReader& readSource) {
  FixCheckStats stats;
  // Candidates, one per distinct edit set (the instances of one place propose the same).
  std::vector<std::unique_ptr<Candidate>> candidates;
  std::map<std::pair<std::string, std::vector<std::tuple<uint64_t, uint64_t, std::string>>>, Candidate*> byEdits;
  for (Finding& f : shown) {
    if (!f.sourceFix) continue;
    if (f.sourceFix->check == SourceFix::Check::Withheld) {  // the rule knew already: say why
      f.notes.push_back(f.sourceFix->verdict);
      continue;
    }
    if (f.sourceFix->edits.empty()) continue;
    std::vector<std::tuple<uint64_t, uint64_t, std::string>> key;
    for (const TextEdit& e : f.sourceFix->edits) key.emplace_back(e.offset, e.length, e.replacement);
    auto [it, inserted] = byEdits.try_emplace({f.sourceFix->edits.front().file, key}, nullptr);
    if (inserted) {
      candidates.push_back(std::make_unique<Candidate>());
      it->second = candidates.back().get();
      it->second->file = f.sourceFix->edits.front().file;
      it->second->edits = f.sourceFix->edits;
      it->second->description = f.sourceFix->description;
    }
    it->second->findings.push_back(&f);
  }
  if (candidates.empty()) return stats;

  // Each file's text and findings before any edit.
  std::map<std::string, FileBefore> files;
  for (auto& c : candidates) files[c->file].candidates.push_back(c.get());
  for (auto it = files.begin(); it != files.end();) {
    const std::optional<std::string> text = readSource(it->first);
    if (!text) {
      for (Candidate* c : it->second.candidates) decide(*c, false, "the file cannot be read", stats);
      it = files.erase(it);
      continue;
    }
    it->second.text = *text;
    ++it;
  }
  for (Finding& f : report::runRules(analysis, arch))
    if (auto it = files.find(f.loc.file); it != files.end()) it->second.findings.push_back(std::move(f));
  for (const FileRecord& r : analysis.files)
    if (auto it = files.find(r.path); it != files.end()) it->second.hostErrors = r.hostErrors;
  for (const KernelRecord& k : analysis.kernels)
    if (auto it = files.find(k.loc.file); it != files.end() && k.status == Status::Failed)
      it->second.failedKernels.insert(k.name);

  // Round 0: every file with all its fixes at once (what --fix writes). Round k >= 1: the
  // files where that failed, with their k-th fix alone, so that one bad fix costs only itself.
  for (size_t round = 0;; ++round) {
    std::map<std::string, std::vector<Candidate*>> targets;
    for (auto& [file, before] : files) {
      if (round == 0) {
        for (Candidate* c : before.candidates) targets[file].push_back(c);
      } else if (round - 1 < before.candidates.size() && !before.candidates[round - 1]->decided) {
        targets[file].push_back(before.candidates[round - 1]);
      }
    }
    if (targets.empty()) {
      bool pending = false;
      for (auto& [file, before] : files) pending |= round <= before.candidates.size();
      if (!pending) break;
      continue;
    }
    analysis::AnalysisRequest again = request;
    again.inputs.clear();
    again.commands.clear();
    again.onlyFilesReaching.reset();
    again.progress = nullptr;
    again.reportFilesRead = false;
    again.replacedFiles.clear();
    for (const auto& [file, list] : targets) {
      std::vector<TextEdit> edits;
      for (const Candidate* c : list) edits.insert(edits.end(), c->edits.begin(), c->edits.end());
      again.inputs.push_back(file);
      again.replacedFiles[absoluteKey(file)] = report::applyEdits(files[file].text, edits).text;
    }
    const AnalysisResult after = analysis::analyze(again);
    ++stats.reanalyses;
    for (const auto& [file, list] : targets) {
      std::string figures;
      const std::string problem = judge(files[file], list, file, after, arch, figures);
      if (problem.empty()) {
        for (Candidate* c : list) decide(*c, true, list.size() == 1 ? figures : "", stats);
      } else if (list.size() == 1) {
        decide(*list.front(), false, problem, stats);
      }  // several fixes together failed: each is checked alone in the next rounds
    }
  }
  return stats;
}

}  // namespace coalesce::cli
