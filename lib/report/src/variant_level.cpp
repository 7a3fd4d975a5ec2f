#include "variant_level.h"
#include "finding_site.h"

#include <algorithm>
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
  // The better version: another kernel of the same translation unit whose name says the same
  // job (kernel_names::sameJobName) and does not call it naive. A naive kernel alone is the
  // program's own version of its job: it keeps its warnings.
  const auto betterVersionOf = [&](const std::string& name) -> const KernelRecord* {
    const KernelRecord* self = nullptr;
    for (const KernelRecord& k : analysis.kernels)
      if (k.name == name) self = &k;
    if (!self) return nullptr;
    for (const KernelRecord& k : analysis.kernels)
      if (k.status == Status::Analysed && k.name != name && k.unit == self->unit &&
          !kernel_names::namedNaive(k.name) && kernel_names::sameJobName(k.name, name))
        return &k;
    return nullptr;
  };
  for (Finding& f : findings) {
    if (!f.access && !f.branch) continue;  // a barrier's hazard is no matter of speed
    if (f.kernel.empty() || !kernel_names::namedNaive(f.kernel)) continue;
    // A note already, for a reason that names more (an alternative, a variant in the file).
    if (f.severityCap && *f.severityCap <= Severity::Note) continue;
    if (!std::all_of(f.instantiations.begin(), f.instantiations.end(), kernel_names::namedNaive)) continue;
    const KernelRecord* better = betterVersionOf(f.kernel);
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
