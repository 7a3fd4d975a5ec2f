#include "interleaved_reduction.h"

#include <algorithm>

#include "condition_tokens.h"

namespace coalesce::report::detail {

namespace {

bool sameFunction(const SourceLocation& loc, const std::string& kernel, const std::string& function,
                  const BranchSite& b) {
  return loc.file == b.loc.file && kernel == b.kernel && function == b.function;
}

bool intersects(const std::set<std::string>& a, const std::set<std::string>& b) {
  return std::any_of(a.begin(), a.end(), [&](const std::string& v) { return b.count(v) > 0; });
}

}  // namespace

std::optional<BranchSite> interleavedReductionLoop(const BranchSite& branch, const AnalysisResult& analysis,
                                                   int64_t warpsPerBlock) {
  if (branch.kind != BranchKind::If || !branch.threadDependent) return std::nullopt;
  // Inside a loop: the branch is reached on more than one pass over the block's warps.
  if (branch.warpRequests <= warpsPerBlock) return std::nullopt;
  const auto divisor = modulusDivisor(tokenize(branch.condition));
  if (!divisor) return std::nullopt;
  const std::set<std::string> divisorVars = variablesOf(*divisor);
  if (divisorVars.empty()) return std::nullopt;

  // The nearest loop above the branch whose condition names the divisor's variable.
  const BranchSite* loop = nullptr;
  for (const BranchSite& l : analysis.branches) {
    if (l.kind != BranchKind::Loop || l.id == branch.id || !sameFunction(l.loc, l.kernel, l.function, branch)) continue;
    if (l.loc.line > branch.loc.line || (loop && l.loc.line < loop->loc.line)) continue;
    if (intersects(variablesOf(tokenize(l.condition)), divisorVars)) loop = &l;
  }
  if (!loop) return std::nullopt;

  // The step's body ends at the first barrier after the branch (the loop's __syncthreads).
  unsigned end = branch.loc.line;
  bool barrierAfter = false;
  for (const BarrierSite& s : analysis.barriers)
    if (sameFunction(s.loc, s.kernel, s.function, branch) && s.loc.line > branch.loc.line &&
        (!barrierAfter || s.loc.line < end)) {
      end = s.loc.line;
      barrierAfter = true;
    }
  const bool touchesShared = std::any_of(analysis.accesses.begin(), analysis.accesses.end(), [&](const AccessSite& a) {
    return a.access.space == model::Space::Shared && sameFunction(a.loc, a.kernel, a.function, branch) &&
           a.loc.line >= loop->loc.line && a.loc.line <= end;
  });
  if (!touchesShared) return std::nullopt;
  return *loop;
}

}  // namespace coalesce::report::detail
