#include "variant_level.h"
#include "finding_site.h"

#include <algorithm>
#include <map>
#include <string>
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
      if (other.access.space != site.access.space || other.access.kind != site.access.kind) continue;
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

}  // namespace coalesce::report::detail
