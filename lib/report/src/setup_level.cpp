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

// Caps at Note each access or branch finding not capped yet all of whose kernels `isSetup`
// says are setup, with the reason `reason` gives for the first of them.
template <class IsSetup, class Reason>
void capWhereEveryKernel(std::vector<Finding>& findings, const AnalysisResult& analysis,
                         const std::vector<size_t>& kernelOf, IsSetup isSetup, Reason reason) {
  for (Finding& f : findings) {
    if (!f.access && !f.branch) continue;
    if (f.kernel.empty() || (f.severityCap && *f.severityCap == Severity::Note)) continue;  // an earlier reason stays
    // Each driver of a tree may define an `init` of the same signature, some beside cuBLAS and
    // some not: the records covered are the finding's own kernel's (finding_site.h).
    const std::vector<const KernelRecord*> covered = kernelsCovered(f, analysis, kernelOf);
    if (covered.empty() || !std::all_of(covered.begin(), covered.end(), isSetup)) continue;
    f.severityCap = Severity::Note;
    f.severityCapReason = reason(f, *covered.front());
  }
}

}  // namespace

void capSetupKernels(std::vector<Finding>& findings, const AnalysisResult& analysis) {
  capWhereEveryKernel(
      findings, analysis, kernelOfAccesses(analysis), [](const KernelRecord* k) { return setupBeside(*k); },
      [](const Finding& f, const KernelRecord& k) {
        return fmt::format(
            "a note, not a warning: {} is launched once per run ({}), while the program repeats GPU work of a "
            "library that the analysis cannot weigh, {}, about {} times per run: a setup kernel, whose waste is a "
            "small part of the program's time",
            f.kernel, k.launchesBasis, k.repeatedWork, number(k.repeatedWorkRuns));
      });
}

void capPointerTableKernels(std::vector<Finding>& findings, const AnalysisResult& analysis) {
  const std::vector<size_t> kernelOf = kernelOfAccesses(analysis);
  // Per kernel record: its global accesses, and how many store a pointer (`const void *`).
  std::vector<int> global(analysis.kernels.size(), 0), pointerStores(analysis.kernels.size(), 0);
  std::vector<std::string> pointerType(analysis.kernels.size());
  for (size_t i = 0; i < analysis.accesses.size() && i < kernelOf.size(); ++i) {
    const size_t k = kernelOf[i];
    const AccessSite& a = analysis.accesses[i];
    if (k >= analysis.kernels.size() || a.access.space != model::Space::Global) continue;
    ++global[k];
    const std::string& type = a.elementType;
    const size_t last = type.find_last_not_of(' ');
    if (a.access.kind == model::AccessKind::Store && last != std::string::npos && type[last] == '*') {
      ++pointerStores[k];
      pointerType[k] = type;
    }
  }
  const auto indexOf = [&](const KernelRecord& k) { return static_cast<size_t>(&k - analysis.kernels.data()); };
  capWhereEveryKernel(
      findings, analysis, kernelOf,
      [&](const KernelRecord* k) {
        const size_t i = indexOf(*k);
        return i < global.size() && global[i] > 0 && pointerStores[i] == global[i];
      },
      [&](const Finding& f, const KernelRecord& k) {
        const int stores = pointerStores[indexOf(k)];
        return fmt::format(
            "a note, not a warning: {} only writes a table of pointers (its global accesses are {} of `{}`{}) for "
            "other GPU work to read, a batched library call or the kernels that follow: a few bytes per entry, a "
            "setup step whose cost is a small part of the work it prepares",
            f.kernel, stores == 1 ? std::string("one store") : fmt::format("{} stores", stores), pointerType[indexOf(k)],
            stores == 1 ? "" : " and other pointers");
      });
}

}  // namespace coalesce::report::detail
