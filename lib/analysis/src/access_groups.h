// Accesses of one thread that the memory system serves together (AccessGroup, records.h):
// which accesses form a group (groupAccesses) and the group's figures (evaluateGroup).
// docs/findings.md, "Groups", says what the rules make of them.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "interpreter_state.h"
#include "lane_function.h"

namespace coalesce::analysis {

// The union of the members' sectors per warp request in the block that stands for the grid,
// over the loop iterations of any member, each member with its own active lanes (its guards
// evaluated per lane), under `values` for the unknown scalars named there (the others at
// their defaults). Averaged, for each member, over the warp requests in which it runs; the
// group's figures are the worst member's (a guarded member is judged where it runs, not
// diluted by the requests the others make alone). Nothing when a member's address is
// data-dependent or unknown, or no warp runs any member.
struct GroupFigures {
  double sectorsPerRequest = 0;
  double idealSectors = 0;
  double memberSectors = 0;
  double sectorRuns = 0;  // runs of 2 or more contiguous sectors in the union (AccessGroup)
  int64_t requests = 0;   // the warp requests of the worst member's view
  int activeMembers = 0;  // members with an active lane in some warp request
};
// `cache`: the kernel's, whose shared guards (lane_evaluator.h, sharedGuards) the members'
// evaluators use, as the accesses' own runs do; null: each member substitutes its own.
// `firstBlock`: evaluated in block 0 rather than the block that stands for the grid (block 1
// of each axis the grid extends on), for members that run only in edge blocks.
std::optional<GroupFigures> evaluateGroup(const std::vector<const RawAccess*>& members, const LaunchContext& launch,
                                          const SymbolTable& symbols, const model::Arch& arch,
                                          const std::map<int, int64_t>& values = {}, GuardCache* cache = nullptr,
                                          bool firstBlock = false);

// Sets AccessSite::group on the accesses of one kernel (seen[i] is sites[first + i]) that the
// memory system serves together: global loads and stores of one thread through the same
// base, in the same loops, whose guards all extend one member's guards (the anchor's, plus
// more: the arms of a branch after an unguarded access), and whose sectors in a warp overlap
// or touch. `cache` holds the scalar values under which an otherwise idle member runs (a
// branch arm that the defaults leave idle): the group is evaluated under each such choice
// too, and keeps its worst figures. The group's id is its first member's index in `sites`.
void groupAccesses(const std::vector<SeenAccess>& seen, const std::vector<LaunchContext>& contexts,
                   const SymbolTable& symbols, const model::Arch& arch, GuardCache& cache,
                   std::vector<AccessSite>& sites, size_t first);

}  // namespace coalesce::analysis
