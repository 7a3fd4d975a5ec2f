#include "variant_level.h"
#include "finding_site.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "access_cause.h"
#include "coalesce/records/kernel_names.h"

namespace coalesce::report::detail {

namespace {

// The access does what its kind can do best: a global one touches no more sectors than its
// bytes need (and the one an unaligned run pays), a shared one has no bank conflict.
bool servedWell(const AccessSite& a, const model::Arch& arch) {
  if (a.figures.global) {
    const model::GlobalFigures& g = a.figures.global->aligned;
    const double allowance = std::max(1.0, g.idealSectors / 8);
    return g.sectorsPerRequest <= std::max(g.idealSectors + allowance, coalescedSectors(a, arch)) + 1e-9;
  }
  if (a.figures.shared) return a.figures.shared->aligned.conflictDegree <= 1.0 + 1e-9;
  return false;
}

// A number written against a letter (`convolution1D`, `conv3d`, `float4`) is part of what the
// name says, not a step's number (`task1`, `v2_`, `003_1`): such names are no series.
bool numberAgainstLetter(const std::string& name) {
  for (size_t i = 0; i + 1 < name.size(); ++i)
    if (std::isdigit(static_cast<unsigned char>(name[i])) && std::isalpha(static_cast<unsigned char>(name[i + 1])))
      return true;
  return false;
}

// Two programs' folders that hold steps of one series: the same folder, or two folders of one
// parent whose names differ only in their numbers (`task1`, `task2`; `step_1`, `step_2`).
bool stepFolders(const std::filesystem::path& a, const std::filesystem::path& b) {
  if (a == b) return true;
  if (a.parent_path() != b.parent_path()) return false;
  const auto withoutNumbers = [](const std::string& name) {
    std::vector<std::string> words = kernel_names::wordsOf(name);
    words.erase(std::remove_if(words.begin(), words.end(), kernel_names::isNumber), words.end());
    return words;
  };
  if (numberAgainstLetter(a.filename().string()) || numberAgainstLetter(b.filename().string())) return false;
  const std::vector<std::string> x = withoutNumbers(a.filename().string());
  return !x.empty() && x == withoutNumbers(b.filename().string()) && a.filename() != b.filename();
}

// Whether `later` is a later step than `earlier` of a numbered series: the first place their paths
// differ is a number (`task2` before `task10`, `reduce_v1_*` before `reduce_v2_*`). Names that
// differ first in a word (`reduction_interleaving`, `reduction_sequential`) have no order.
bool laterStep(const std::string& earlier, const std::string& later) {
  size_t i = 0, j = 0;
  while (i < earlier.size() && j < later.size()) {
    const bool di = std::isdigit(static_cast<unsigned char>(earlier[i])) != 0;
    const bool dj = std::isdigit(static_cast<unsigned char>(later[j])) != 0;
    if (di && dj) {
      size_t ei = i, ej = j;
      while (ei < earlier.size() && std::isdigit(static_cast<unsigned char>(earlier[ei]))) ++ei;
      while (ej < later.size() && std::isdigit(static_cast<unsigned char>(later[ej]))) ++ej;
      const std::string a = earlier.substr(i, ei - i), b = later.substr(j, ej - j);
      const std::string na = a.substr(std::min(a.find_first_not_of('0'), a.size()));
      const std::string nb = b.substr(std::min(b.find_first_not_of('0'), b.size()));
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      i = ei;
      j = ej;
      continue;
    }
    if (earlier[i] != later[j]) return false;
    ++i;
    ++j;
  }
  return false;
}

// The name a series gives its files: the first word of the file's name that is not a number
// (`reduce_v1_no_divergence_branch.cu`, `reduce_v2_no_bank_conflict.cu`: reduce;
// `003_1_transpose-timing.cu`, `003_2_transpose-timing-coalesced.cu`: transpose).
std::string seriesName(const std::filesystem::path& file) {
  if (numberAgainstLetter(file.stem().string())) return {};
  for (const std::string& w : kernel_names::wordsOf(file.stem().string()))
    if (!kernel_names::isNumber(w)) return w;
  return {};
}

}  // namespace

void capNamedNaiveVariants(std::vector<Finding>& findings, const AnalysisResult& analysis) {
  // The better version of each kernel named naive, found once per definition (a kernel has a
  // finding per access): another kernel of the same translation unit whose name says the same
  // job (kernel_names::jobWords) and does not call it naive. A naive kernel alone is the
  // program's own version of its job: it keeps its warnings. Keyed by the defining file too: a
  // run over a tree holds several programs' `transposeNaive`.
  std::map<std::pair<std::string, std::string>, const KernelRecord*> betterVersion;  // (file, name)
  for (const KernelRecord& naive : analysis.kernels) {
    if (!kernel_names::namedNaive(naive.name) || betterVersion.count({naive.loc.file, naive.name})) continue;
    const std::vector<std::string> job = kernel_names::jobWords(naive.name);
    const KernelRecord*& better = betterVersion[{naive.loc.file, naive.name}];
    better = nullptr;
    for (const KernelRecord& k : analysis.kernels)
      if (!job.empty() && k.status == Status::Analysed && k.unit == naive.unit && !kernel_names::namedNaive(k.name) &&
          kernel_names::jobWords(k.name) == job) {
        better = &k;
        break;
      }
  }
  // The finding's own file's definition, else one of that name (a helper in a header).
  const auto betterVersionOf = [&](const Finding& f) -> const KernelRecord* {
    if (auto it = betterVersion.find({f.loc.file, f.kernel}); it != betterVersion.end()) return it->second;
    for (const auto& [key, better] : betterVersion)
      if (key.second == f.kernel) return better;
    return nullptr;
  };
  for (Finding& f : findings) {
    if (!f.access && !f.branch) continue;  // a barrier's hazard is no matter of speed
    if (f.kernel.empty() || !kernel_names::namedNaive(f.kernel)) continue;
    // A note already, for a reason that names more (an alternative, a variant in the file).
    if (f.severityCap && *f.severityCap <= Severity::Note) continue;
    if (!std::all_of(f.instantiations.begin(), f.instantiations.end(), kernel_names::namedNaive)) continue;
    const KernelRecord* better = betterVersionOf(f);
    if (!better) continue;
    f.severityCap = std::min(f.severityCap.value_or(Severity::Note), Severity::Note);
    f.severityCapReason = fmt::format(
        "a note, not a warning: the kernel's name, {}, says it is the naive version of a job the program also "
        "does with {} (line {}): a baseline kept on purpose; if the program relies on it, the fix below applies",
        f.kernel, better->name, better->loc.line);
  }
}

void capVariantsFixedInFile(std::vector<Finding>& findings, const AnalysisResult& analysis, const model::Arch& arch) {
  for (Finding& f : findings) {
    const AccessSite* found = accessSiteOf(f, analysis);
    if (!found) continue;
    const AccessSite& site = *found;
    if (site.kernel.empty() || !site.executed) continue;
    const AccessSite* fixed = nullptr;
    for (const AccessSite& other : analysis.accesses) {
      if (other.kernel == site.kernel || other.kernel.empty() || !other.executed) continue;
      // The same place in another kernel is another instantiation of a template, or a device
      // function two kernels call: the same code, not a variant of it.
      if (other.loc.line == site.loc.line && other.loc.column == site.loc.column) continue;
      if (other.loc.file != site.loc.file || other.expression != site.expression) continue;
      // A version of this kernel: a name that says the same job (`transposeCoalesced` beside
      // `transposeNoBankConflicts`). Kernels of different jobs share code as written (libSGM's
      // vertical and oblique path kernels, both launched, stage a tile with the same statement
      // on blocks of other shapes): one says nothing of the other's fix.
      if (!kernel_names::versionsOfOneJob(other.kernel, site.kernel)) continue;
      if (other.access.space != site.access.space || other.access.kind != site.access.kind) continue;
      // The same statement on elements of another width is another data type's kernel, not a
      // fix (libSGM's median filter for 8-bit and for 16-bit pixels: 16 threads a row store 16
      // bytes of one and 32 of the other).
      if (other.access.bytesPerLane != site.access.bytesPerLane) continue;
      if (servedWell(other, arch)) {
        fixed = &other;
        break;
      }
    }
    if (!fixed) continue;
    f.severityCap = std::min(f.severityCap.value_or(Severity::Note), Severity::Note);
    f.severityCapReason = fmt::format(
        "a note, not a warning: kernel {} in the same file performs the same {} '{}' (line {}) without the problem, "
        "a variant kept for comparison; if the program relies on this kernel, that one shows the fix",
        fixed->kernel, toString(fixed->access.kind), fixed->expression, fixed->loc.line);
  }
}

void capStepsFixedBeside(std::vector<Finding>& findings, const AnalysisResult& analysis) {
  namespace fs = std::filesystem;
  // What a finding is about: the memory space of its access (a global access's rules name one
  // problem several ways: uncoalesced, inverted axes, misaligned, fields of a record), or its
  // branch.
  const auto topic = [&](const Finding& f) -> std::string {
    if (f.branch) return "branch";
    const AccessSite* a = accessSiteOf(f, analysis);
    return a ? std::string(model::toString(a->access.space)) : std::string();
  };
  // The kernels some finding of a topic names, by (topic, defining file, name): a step that
  // has one has a problem of the kind too (whatever its level or rule), so it fixes nothing.
  std::set<std::tuple<std::string, std::string, std::string>> hasFinding;
  for (const Finding& f : findings) {
    const std::string t = topic(f);
    hasFinding.insert({t, f.loc.file, f.kernel});
    for (const std::string& k : f.instantiations) hasFinding.insert({t, f.loc.file, k});
  }
  // The programs that may be steps (launched from their unit's main), each with its folder and
  // series name worked out once: the pairs below compare them finding by finding.
  struct Program {
    const KernelRecord* kernel;
    fs::path folder;
    std::string series;
  };
  std::vector<Program> programs;
  for (const KernelRecord& k : analysis.kernels)
    if (k.status == Status::Analysed && k.launchedFromMain && !k.unit.empty())
      programs.push_back({&k, fs::path(k.unit).lexically_normal().parent_path(), seriesName(k.unit)});
  // A later step of the series beside `kernel` that does its job without a finding of `t`.
  const auto fixedStep = [&](const KernelRecord& kernel, const std::string& t) -> const KernelRecord* {
    const auto self = std::find_if(programs.begin(), programs.end(), [&](const Program& p) { return p.kernel == &kernel; });
    // Files named as one series: a folder of unrelated programs (examples, tests) is not one.
    if (self == programs.end() || self->series.empty()) return nullptr;
    for (const Program& step : programs) {
      const KernelRecord& other = *step.kernel;
      if (other.unit == kernel.unit || step.series != self->series) continue;
      if (other.name != kernel.name && !kernel_names::sameJobName(other.name, kernel.name)) continue;
      if (!stepFolders(self->folder, step.folder)) continue;
      // A later step, in the order the series numbers its files (`reduce_v0` before `reduce_v1`):
      // an earlier one that lacks the finding may have a worse problem the next step fixed.
      if (!laterStep(kernel.unit, other.unit)) continue;
      if (hasFinding.count({t, other.loc.file, other.name})) continue;
      return &other;
    }
    return nullptr;
  };
  for (Finding& f : findings) {
    if (!f.access && !f.branch) continue;  // a barrier's hazard is no matter of speed
    if (f.kernel.empty() || (f.severityCap && *f.severityCap <= Severity::Note)) continue;
    const std::string t = topic(f);
    if (t.empty()) continue;
    // Every kernel the place covers (its instantiations) needs a fixed step of its own.
    const std::vector<std::string> names = f.instantiations.empty() ? std::vector<std::string>{f.kernel} : f.instantiations;
    const KernelRecord* shown = nullptr;
    bool all = true;
    for (const std::string& name : names) {
      const KernelRecord* step = nullptr;
      for (const KernelRecord& k : analysis.kernels)
        if (k.name == name && k.loc.file == f.loc.file && (step = fixedStep(k, t))) break;
      if (!step) {
        all = false;
        break;
      }
      if (!shown) shown = step;
    }
    if (!all || !shown) continue;
    f.severityCap = std::min(f.severityCap.value_or(Severity::Note), Severity::Note);
    f.severityCapReason = fmt::format(
        "a note, not a warning: {} beside it, a later step of the same series and a program of its own as this file "
        "is, does the same job ({}) with no finding on its {}: a tutorial's or benchmark's step kept beside its fix; "
        "if this version is the one in use, the fix below applies",
        fs::path(shown->unit).filename().string(), shown->name,
        t == "branch" ? std::string("branches") : t + " accesses");
  }
}

}  // namespace coalesce::report::detail
