#include "interleaved_reduction.h"

#include <algorithm>

namespace coalesce::report::detail {

namespace {

bool sameKernel(const std::string& file, const std::string& kernel, const BranchSite& b) {
  return file == b.loc.file && kernel == b.kernel;
}

bool inLoop(const std::vector<int>& loops, int loop) {
  return std::find(loops.begin(), loops.end(), loop) != loops.end();
}

}  // namespace

std::optional<BranchSite> interleavedReductionLoop(const BranchSite& branch, const AnalysisResult& analysis,
                                                   int64_t warpsPerBlock) {
  if (branch.kind != BranchKind::If || !branch.threadDependent) return std::nullopt;
  // Inside a loop: the branch is reached on more than one pass over the block's warps.
  if (branch.warpRequests <= warpsPerBlock) return std::nullopt;
  // The innermost loop around the branch whose variable the condition's modulus divides by
  // (the analysis records both: BranchSite::loops, BranchSite::modulusLoops).
  const auto enclosing = std::find_if(branch.loops.rbegin(), branch.loops.rend(),
                                      [&](int l) { return inLoop(branch.modulusLoops, l); });
  if (enclosing == branch.loops.rend()) return std::nullopt;
  const int loopId = *enclosing;
  const auto loop = std::find_if(analysis.branches.begin(), analysis.branches.end(), [&](const BranchSite& l) {
    return l.kind == BranchKind::Loop && l.id != branch.id && sameKernel(l.loc.file, l.kernel, branch) &&
           !l.loops.empty() && l.loops.back() == loopId;
  });
  if (loop == analysis.branches.end()) return std::nullopt;

  // The step's body ends at the first barrier of the loop after the branch (its __syncthreads).
  unsigned end = branch.loc.line;
  bool barrierAfter = false;
  for (const BarrierSite& s : analysis.barriers)
    if (s.loc.file == branch.loc.file && s.kernel == branch.kernel && inLoop(s.loops, loopId) &&
        s.loc.line > branch.loc.line && (!barrierAfter || s.loc.line < end)) {
      end = s.loc.line;
      barrierAfter = true;
    }
  const bool touchesShared = std::any_of(analysis.accesses.begin(), analysis.accesses.end(), [&](const AccessSite& a) {
    return a.access.space == model::Space::Shared && a.loc.file == branch.loc.file && a.kernel == branch.kernel &&
           inLoop(a.loops, loopId) && a.loc.line <= end;
  });
  if (!touchesShared) return std::nullopt;
  return *loop;
}

}  // namespace coalesce::report::detail
