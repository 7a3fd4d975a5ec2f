#include "divergent_branch.h"

#include <algorithm>

#include <fmt/format.h>

#include "coalesce/model/geometry.h"

#include "../format.h"
#include "branch_remap.h"
#include "control_finding.h"
#include "interleaved_reduction.h"

namespace coalesce::report {

using namespace detail;

namespace {

// The warps a contiguous range of threads can split on one pass: the one at each end.
constexpr int64_t kRangeEnds = 2;

std::string branchPhrase(const BranchSite& b) {
  if (b.kind == BranchKind::Loop) return fmt::format("loop condition '{}'", b.condition);
  if (b.kind == BranchKind::Switch) return fmt::format("'switch ({})'", b.condition);
  if (b.kind == BranchKind::Conditional) return fmt::format("'{} ? ... : ...'", b.condition);
  return fmt::format("'if ({})'", b.condition);
}

// What a split warp pays, in the SIMT model of seed 002.
std::string costPhrase(const BranchSite& b) {
  if (b.kind == BranchKind::Loop)
    return "the warp keeps iterating until its last lane is done, with the finished lanes masked off (SIMT): "
           "it pays for the longest trip count of its lanes";
  return fmt::format("the warp runs every path that some of its lanes take, one after the other, with the other "
                     "lanes masked off (SIMT): it pays for {} although each thread runs one",
                     b.kind == BranchKind::Switch ? "every case its lanes take" : "both paths");
}

// The remap fix with its figures (branch_remap.h), or why no fix is claimed.
std::string remapFix(const BranchSite& b) {
  const BranchRemap remap = branchRemap(b);
  if (!remap.computed) return "no fix computed: " + remap.whyNot;
  const char* how = b.kind == BranchKind::Loop
                        ? "give the threads their work sorted by trip count, so that on each pass the threads still "
                          "looping are the first of those that reach the condition"
                    : b.kind == BranchKind::Switch
                        ? "remap the work so that the threads taking the same case are contiguous (grouped by the "
                          "value switched on)"
                        : "remap the work so that the threads taking the branch are contiguous (on each pass, the "
                          "first k of the threads that reach it take it, k as now)";
  return fmt::format("fix: {}: {} of {} warp requests split instead of {}; a short branch can instead become a "
                     "select (r = cond ? a : b, no jump)",
                     how, remap.after, b.warpRequests, remap.before);
}

std::string sequentialAddressingFix(const BranchSite& b, const BranchSite& loop, int64_t passes) {
  return fmt::format(
      "fix: sequential addressing (seed 002, reduction): for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) "
      "{{ if (tid < s) sdata[tid] += sdata[tid + s]; __syncthreads(); }}: the active threads stay contiguous, so "
      "whole warps drop out and at most one warp splits per step (at most {} of {} warp requests instead of "
      "{}), and sdata[tid] stays free of bank conflicts; the strided index (index = 2 * s * tid) also removes "
      "most of the divergence but brings bank conflicts (loop '{}')",
      passes, b.warpRequests, b.divergentRequests, loop.condition);
}

}  // namespace

RuleDescription DivergentBranch::description() const {
  return {"Branch condition differs between the lanes of a warp",
          "A warp executes one instruction for its 32 lanes (SIMT). When the lanes of a warp disagree on a "
          "branch, the warp runs both paths one after the other with the other lanes masked off, so the branch "
          "costs the sum of its paths. Reported when more warps split than a contiguous range of threads would "
          "split (the two warps at its ends, per pass over the block), for the block shape of the launch.",
          "Make the condition uniform over each warp (branch on threadIdx.x / 32), turn short branches into "
          "selects (cond ? a : b), or sort the work so that the threads of a warp take the same path. For the "
          "interleaved reduction (tid % (2 * s) == 0) use sequential addressing: if (tid < s) with s halving."};
}

std::optional<Finding> DivergentBranch::checkBranch(const BranchSite& b, const RuleContext& ctx) const {
  if (b.divergentRequests <= 0 || b.warpRequests <= 0) return std::nullopt;
  // A bounds check that cuts only the block's partial last warp costs nothing a warp
  // could have saved.
  if (b.onlyPartialWarps) return std::nullopt;
  // A condition that keeps a contiguous range of linear thread indices (tid < s,
  // col < width, 1 <= t && t < n - 1) splits at most the two warps at the ends of the range
  // on each pass over the block: the active threads are already packed into the fewest
  // warps, and no restructuring does better. The passes are counted from the records, as
  // each pass reaches at most every warp of the block.
  const int64_t warps = std::max<int64_t>(1, model::warpCount(b.block.dim, ctx.arch));
  const int64_t passes = (b.warpRequests + warps - 1) / warps;
  if (b.divergentRequests <= kRangeEnds * passes) return std::nullopt;

  const double share = static_cast<double>(b.divergentRequests) / static_cast<double>(b.warpRequests);
  Finding f = controlFinding(*this, b.loc, b.lineText,
                             fmt::format("{} splits {} of {} warp requests ({}): the lanes of a warp disagree, so {}",
                                         branchPhrase(b), b.divergentRequests, b.warpRequests, percent(share),
                                         costPhrase(b)),
                             "split warps counted exactly over every warp", b.block, b.assumptions);
  f.branch = b.id;
  f.divergentShare = share;
  if (!b.evaluated)
    f.notes.push_back("the condition could not be evaluated for some lanes (values known only at run time): the "
                      "split count is a lower bound");
  std::optional<BranchSite> loop;
  if (ctx.analysis) loop = interleavedReductionLoop(b, *ctx.analysis, warps);
  f.notes.push_back(loop ? sequentialAddressingFix(b, *loop, passes) : remapFix(b));
  return f;
}

}  // namespace coalesce::report
