#include "setup_level.h"

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "finding_site.h"
#include "format.h"

namespace coalesce::report::detail {

namespace {

// Launched once per run (not in a loop, not under a count taken at a guess), beside library
// work repeated at least twice.
bool setupBeside(const KernelRecord& k) {
  return k.status == Status::Analysed && k.launchesPerRun > 0 && k.launchesPerRun <= 1 && !k.repeatedWork.empty() &&
         k.repeatedWorkRuns >= 2;
}

}  // namespace

void capSetupKernels(std::vector<Finding>& findings, const AnalysisResult& analysis) {
  const std::vector<size_t> kernelOf = kernelOfAccesses(analysis);
  for (Finding& f : findings) {
    if (!f.access && !f.branch) continue;
    if (f.kernel.empty() || (f.severityCap && *f.severityCap == Severity::Note)) continue;  // an earlier reason stays
    // Each driver of a tree may define an `init` of the same signature, some beside cuBLAS and
    // some not: the records covered are the finding's own kernel's (finding_site.h).
    const std::vector<const KernelRecord*> covered = kernelsCovered(f, analysis, kernelOf);
    if (covered.empty() || !std::all_of(covered.begin(), covered.end(), [](const KernelRecord* k) { return setupBeside(*k); }))
      continue;
    const KernelRecord& k = *covered.front();
    f.severityCap = Severity::Note;
    f.severityCapReason = fmt::format(
        "a note, not a warning: {} is launched once per run ({}), while the program repeats GPU work of a library "
        "that the analysis cannot weigh, {}, about {} times per run: a setup kernel, whose waste is a small part of "
        "the program's time",
        f.kernel, k.launchesBasis, k.repeatedWork, number(k.repeatedWorkRuns));
  }
}

}  // namespace coalesce::report::detail
