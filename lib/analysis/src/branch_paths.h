// A branch's values over one block, for the divergent-branch rule's remap fix (docs/rules/
// divergent-branch.md): the block drawn per lane for the HTML page, and the warps that would
// still split if the work were remapped so that threads with the same value are contiguous.
// Pure functions of the per-thread values, split from lane_function.cpp, which evaluates them.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "coalesce/model/arch.h"
#include "coalesce/records/records.h"

namespace coalesce::analysis {

// The block at one iteration for the picture of the remap fix (LaneSplit::byWarp): per
// thread its value (nullopt: no value), `unknown` marking the reaching threads whose value is
// not known. Empty when the block takes more values than LaneSplit::kMaxBlockPaths.
void blockPaths(LaneSplit& split, const std::vector<std::optional<int64_t>>& values, const std::vector<bool>& unknown,
                int64_t warps, const model::Arch& arch);

// The warps that would split on this pass if the work were remapped so that the threads
// reaching the branch with the same value are contiguous, in their linear order: the first
// k of them on the true side (byValue: the values in increasing order). A warp splits when
// two neighbours in that order, on different sides of a boundary, fall in it.
int64_t remappedSplitWarps(const std::vector<std::optional<int64_t>>& values, bool byValue, const model::Arch& arch);

}  // namespace coalesce::analysis
