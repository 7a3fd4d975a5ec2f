#include "launch_level.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include <fmt/format.h>

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
  // A kernel name counts as unlaunched only when every record of it is (a name two files
  // define, or a template whose instantiations differ, needs all of them unlaunched).
  std::map<std::string, bool> unlaunched;
  std::map<std::string, std::string> fileOf;
  for (const KernelRecord& k : analysis.kernels) {
    if (k.status != Status::Analysed) continue;
    const bool here = launchedNowhere(k) && launchingFiles.count(k.loc.file) > 0;
    auto [it, inserted] = unlaunched.try_emplace(k.name, here);
    if (!inserted) it->second = it->second && here;
    fileOf.try_emplace(k.name, k.loc.file);
  }
  const auto isUnlaunched = [&](const std::string& name) {
    auto it = unlaunched.find(name);
    return it != unlaunched.end() && it->second;
  };
  for (Finding& f : findings) {
    if (!f.access && !f.branch) continue;
    if (f.kernel.empty() || !isUnlaunched(f.kernel)) continue;
    if (!std::all_of(f.instantiations.begin(), f.instantiations.end(), isUnlaunched)) continue;
    f.severityCap = std::min(f.severityCap.value_or(Severity::Note), Severity::Note);
    f.severityCapReason = fmt::format(
        "a note, not a warning: {} is never launched in {}, which launches other kernels (if another file "
        "launches it, give its block with --block-dim or a `coalesce-lint: block=` comment)",
        f.kernel, fileOf[f.kernel]);
  }
}

}  // namespace coalesce::report::detail
