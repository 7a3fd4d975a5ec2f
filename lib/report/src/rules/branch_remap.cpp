#include "branch_remap.h"

#include <algorithm>
#include <functional>

#include <fmt/format.h>

namespace coalesce::report::detail {

namespace {

bool isPath(char lane) { return lane >= 'a' && lane <= 'z'; }

// One lane of every warp that reaches the branch on one side, all its other reaching lanes on
// the other (`if (lane == 0)`, `if (lane != 0)`): a warp's leader acting for its warp.
bool oneLeaderPerWarp(const std::vector<std::string>& byWarp) {
  bool anyWarp = false;
  for (const std::string& warp : byWarp) {
    if (std::none_of(warp.begin(), warp.end(), isPath)) continue;
    anyWarp = true;
    // Two paths, one of them a single lane.
    std::vector<int64_t> counts;
    for (char path = 'a'; path <= 'z'; ++path)
      if (const auto n = std::count(warp.begin(), warp.end(), path)) counts.push_back(n);
    if (counts.size() != 2 || std::min(counts[0], counts[1]) != 1) return false;
  }
  return anyWarp;
}

}  // namespace

int64_t splitWarps(const std::vector<std::string>& byWarp) {
  int64_t n = 0;
  for (const std::string& warp : byWarp) {
    char first = 0;
    for (char lane : warp) {
      if (!isPath(lane)) continue;
      if (!first) first = lane;
      else if (lane != first) {
        ++n;
        break;
      }
    }
  }
  return n;
}

std::vector<std::string> remappedBlock(const LaneSplit& split, BranchKind kind) {
  std::string paths;  // the reaching lanes' paths, in linear order
  for (const std::string& warp : split.byWarp)
    for (char lane : warp) {
      if (lane == '?') return {};
      if (isPath(lane)) paths += lane;
    }
  if (paths.empty()) return {};
  // A condition's true side first ('b' is "1" when the block takes both values); a switch's
  // values in increasing order, as the analysis counts (lane_function.cpp, remappedSplitWarps).
  if (kind == BranchKind::Switch) std::sort(paths.begin(), paths.end());
  else std::sort(paths.begin(), paths.end(), std::greater<>());
  std::vector<std::string> out = split.byWarp;
  size_t next = 0;
  for (std::string& warp : out)
    for (char& lane : warp)
      if (isPath(lane)) lane = paths[next++];
  return out;
}

BranchRemap branchRemap(const BranchSite& b) {
  BranchRemap out;
  out.before = b.divergentRequests;
  if (b.remappedDivergentRequests < 0) {
    out.whyNot = "the condition depends, for some lanes, on values not known statically (loaded data or runtime "
                 "values), so which threads take each path, and any remap of them, is not known";
    return out;
  }
  if (b.kind != BranchKind::Switch && oneLeaderPerWarp(b.split.byWarp)) {
    out.whyNot = "one lane of every warp takes one side, the pattern of a warp's leader acting for its warp (as "
                 "after a warp-level reduction); giving that work to the first threads of the block would first "
                 "move each warp's values to another warp (through shared memory and a barrier), a change the "
                 "records cannot evaluate";
    return out;
  }
  out.after = b.remappedDivergentRequests;
  if (out.after >= out.before) {
    out.whyNot = fmt::format("grouping the threads by path would still split {} of {} warp requests, no fewer",
                             out.after, b.warpRequests);
    return out;
  }
  out.computed = true;
  return out;
}

}  // namespace coalesce::report::detail
