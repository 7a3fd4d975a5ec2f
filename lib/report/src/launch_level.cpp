#include "launch_level.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include <fmt/format.h>

#include "finding_site.h"

namespace coalesce::report::detail {

namespace {

bool launchedNowhere(const KernelRecord& k) {
  return (k.block.source == BlockSource::Assumed || k.block.source == BlockSource::KernelImplied) &&
         k.block.detail.rfind(kNoLaunchFound, 0) == 0;
}

}  // namespace

void capUnlaunchedKernels(std::vector<Finding>& findings, const AnalysisResult& analysis) {
  // The files that launch at least one of the kernels they define (with a block known or
  // computed at run time: either way the file's code launches it).
  std::set<std::string> launchingFiles;
  for (const KernelRecord& k : analysis.kernels)
    if (k.status == Status::Analysed && !launchedNowhere(k)) launchingFiles.insert(k.loc.file);
  // Unlaunched only when every record the finding covers is (a kernel a header gives two units,
  // a template whose instantiations differ, needs all of them unlaunched); records of the same
  // name defined elsewhere are other kernels (finding_site.h, kernelsCovered: the overload
  // `init(int, const int, double *)` that one driver of a tree launches and another does not).
  // The files whose host code had errors, with how many (FileRecord::hostErrors).
  std::map<std::string, int> hostErrors;
  for (const FileRecord& r : analysis.files)
    if (r.hostErrors > 0) hostErrors[r.path] = r.hostErrors;
  const std::vector<size_t> kernelOf = kernelOfAccesses(analysis);
  const auto unlaunched = [&](const KernelRecord* k) {
    return launchedNowhere(*k) && launchingFiles.count(k->loc.file) > 0;
  };
  // A kernel launched nowhere, on a guessed block or one its code implies, in a file whose
  // host code had errors: the launch may sit in code the parse could not read, so a guess, not
  // the launch, gives the figures. SHOC's stencil2d without its configure-made config.h
  // (`restrict`): the class template whose operator() launches StencilKernel on a 1 x lCols
  // block did not parse, and the 32x8 guess gave bank conflicts the real block has none of
  // (blind panel 25: false).
  const auto guessedBesideErrors = [&](const KernelRecord* k) {
    return launchedNowhere(*k) && hostErrors.count(k->loc.file) > 0;
  };
  for (Finding& f : findings) {
    if (!f.access && !f.branch) continue;
    if (f.kernel.empty()) continue;
    std::vector<const KernelRecord*> covered = kernelsCovered(f, analysis, kernelOf);
    std::erase_if(covered, [](const KernelRecord* k) { return k->status != Status::Analysed; });  // no say
    if (covered.empty()) continue;
    const bool launchesOthers = std::all_of(covered.begin(), covered.end(), unlaunched);
    if (!launchesOthers && !std::all_of(covered.begin(), covered.end(), guessedBesideErrors)) continue;
    f.severityCap = std::min(f.severityCap.value_or(Severity::Note), Severity::Note);
    // A file whose host code had errors (a header not found: mpi.h) may launch the kernel in a
    // function the parse could not read (the NVIDIA blog's cuda-aware-mpi Device.cu, whose
    // wrappers launch both halo kernels): the note then says only that no launch was seen.
    const std::string& file = covered.front()->loc.file;
    if (const auto errors = hostErrors.find(file); errors != hostErrors.end())
      f.severityCapReason = fmt::format(
          "a note, not a warning: no launch of {} was found in {}{}, but its host code has {} error{} (a launch "
          "there may not have been read, and the figures rest on a guessed block: give the build's flags after --, "
          "or its block with --block-dim or a `coalesce-lint: block=` comment)",
          f.kernel, file, launchesOthers ? ", which launches other kernels" : "", errors->second,
          errors->second == 1 ? "" : "s");
    else
      f.severityCapReason = fmt::format(
          "a note, not a warning: {} is never launched in {}, which launches other kernels (if another file "
          "launches it, give its block with --block-dim or a `coalesce-lint: block=` comment)",
          f.kernel, file);
  }
}

}  // namespace coalesce::report::detail
