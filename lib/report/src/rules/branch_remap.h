// The remap fix of a divergent branch (docs/rules/divergent-branch.md): remap the work so
// that the threads reaching the branch with the same value are contiguous, the first k of them
// on the true side (a switch: its values in increasing order). Whatever the condition, this
// leaves at most one split warp per pass for an if (one per boundary between a switch's
// values). The figures come from the records (BranchSite::remappedDivergentRequests, counted by
// the analysis over every pass; LaneSplit::byWarp, the block of the pass the pictures show),
// never from that bound. The divergent-branch rule quotes them in its fix note and the HTML
// page draws the remapped block (lib/report/src/html_finding.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "coalesce/records/records.h"

namespace coalesce::report::detail {

struct BranchRemap {
  bool computed = false;  // false: no fix is claimed, and `whyNot` says why
  std::string whyNot;     // one clause, no final stop
  int64_t before = 0;     // warp requests that split as written (every pass the analysis lists)
  int64_t after = 0;      // ... and after the remap
};
BranchRemap branchRemap(const BranchSite& branch);

// The block of `split` (LaneSplit::byWarp) after the remap: the same threads reach the branch,
// the first of them take the first path. Empty when the block has no lanes or an unknown one.
std::vector<std::string> remappedBlock(const LaneSplit& split, BranchKind kind);

// Warps of a block (LaneSplit::byWarp) whose reaching lanes take more than one path.
int64_t splitWarps(const std::vector<std::string>& byWarp);

}  // namespace coalesce::report::detail
