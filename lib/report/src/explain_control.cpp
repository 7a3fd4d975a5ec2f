// --explain at a barrier or a branch (a `barrier-in-divergent-code` or `divergent-branch`
// finding names its line like an access finding does): which threads reach the barrier, or
// how the branch splits a warp, from the same records the rules read (records.h).
#include <algorithm>

#include <fmt/format.h>

#include "coalesce/report/explain.h"
#include "format.h"

namespace coalesce::report {

namespace {

std::string where(const SourceLocation& loc, const std::string& kernel, const BlockShape& block) {
  std::string from(toString(block.source));
  if (!block.detail.empty()) from += ": " + block.detail;
  return fmt::format("{}:{}:{} in kernel '{}', block {} ({})", loc.file, loc.line, loc.column, kernel,
                     detail::dims(block.dim), from);
}

void listAssumptions(std::string& out, const std::vector<std::string>& assumptions) {
  for (const std::string& a : assumptions) out += fmt::format("  assumes: {}\n", a);
}

}  // namespace

std::string explainBarrier(const BarrierSite& b) {
  std::string out = fmt::format("barrier '{}' at {}\n", b.call.empty() ? std::string("__syncthreads()") : b.call,
                                where(b.loc, b.kernel, b.block));
  switch (b.reach) {
    case BarrierSite::Reach::Uniform:
      out += "  every thread of the block reaches it, or none\n";
      break;
    case BarrierSite::Reach::Divergent:
      out += fmt::format("  only some threads of a block reach it: the guard `{}` differs between them\n", b.condition);
      break;
    case BarrierSite::Reach::Unknown:
      out += fmt::format("  whether every thread reaches it is not known: `{}` depends on the thread through values "
                         "not known statically\n",
                         b.condition);
      break;
  }
  if (!b.reachByWarp.empty()) {
    out += fmt::format("  threads that reach it, one row per warp, one column per lane (1 reaches, 0 does not, "
                       "? unknown, - no thread){}:\n",
                       b.loops.empty() ? std::string()
                                       : fmt::format(", at iteration {} of the loops around it", b.reachIteration + 1));
    for (size_t w = 0; w < b.reachByWarp.size(); ++w) out += fmt::format("    warp {:>2}  {}\n", w, b.reachByWarp[w]);
  }
  listAssumptions(out, b.assumptions);
  return out;
}

std::string explainBranch(const BranchSite& b) {
  std::string out = fmt::format("branch `{}` at {}\n", b.condition, where(b.loc, b.kernel, b.block));
  if (!b.evaluated) {
    out += "  its condition depends on data or values not known statically: not evaluated per lane\n";
  } else if (b.warpRequests > 0) {
    out += fmt::format("  {} of {} warp requests reaching it split ({}){}\n", b.divergentRequests, b.warpRequests,
                       detail::percent(static_cast<double>(b.divergentRequests) / static_cast<double>(b.warpRequests)),
                       b.onlyPartialWarps ? "; every split warp is the block's partial last warp" : "");
  } else {
    out += "  no warp reaches it in the contexts evaluated\n";
  }
  const LaneSplit& s = b.split;
  if (s.warp >= 0 && !s.lanes.empty()) {
    out += fmt::format("  first split warp: warp {} of block ({}, {}, {}){}; per lane, the value the condition takes "
                       "(. does not reach it):\n    ",
                       s.warp, s.blockX, s.blockY, s.blockZ,
                       b.loops.empty() ? std::string() : fmt::format(", iteration {}", s.iteration + 1));
    for (int v : s.lanes) out += v < 0 ? std::string(".") : (static_cast<size_t>(v) < s.values.size() ? s.values[static_cast<size_t>(v)] : "?");
    out += "\n";
    if (s.values.size() > 2 || std::any_of(s.values.begin(), s.values.end(), [](const std::string& v) { return v.size() > 1; })) {
      out += "  values:";
      for (size_t i = 0; i < s.values.size(); ++i) out += fmt::format(" {}", s.values[i]);
      out += "\n";
    }
  }
  listAssumptions(out, b.assumptions);
  return out;
}

std::vector<const BarrierSite*> barriersAt(const AnalysisResult& analysis, const ExplainTarget& target) {
  std::vector<const BarrierSite*> out;
  for (const BarrierSite& b : analysis.barriers)
    if (atTarget(b.loc, target)) out.push_back(&b);
  return out;
}

std::vector<const BranchSite*> branchesAt(const AnalysisResult& analysis, const ExplainTarget& target) {
  std::vector<const BranchSite*> out;
  for (const BranchSite& b : analysis.branches)
    if (atTarget(b.loc, target)) out.push_back(&b);
  return out;
}

}  // namespace coalesce::report
