// An access's figures kept across the listed iterations of one block run (lane_function.cpp,
// evaluateLanesInBlock): model::analyzeAccess and model::blockBytes read the pattern's base
// only modulo a period (the sector for global memory, the wavefront's bytes for shared:
// access_model.cpp's baseResidues, block_reuse.cpp's floorMod), so iterations whose addresses
// differ by whole periods (a loop stepping rows, a guard's loop that leaves the address
// alone) have the same figures. Each is computed once, on the access moved into its first
// period, and looked up by that moved access; test/analysis/lanes/periodic_figures_test.cpp
// checks the model's functions give the same figures at every move. Clang-free.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <unordered_map>
#include <vector>

#include "coalesce/model/access_model.h"
#include "coalesce/model/block_reuse.h"

namespace coalesce::analysis {

// A hash of everything model::warpLaneOffsets and the figures read of a pattern.
// `baseConstant`: the base's constant to hash in place of the pattern's own (PeriodicFigures
// hashes a pattern as if moved into its period, without moving a copy).
inline size_t hashOfPattern(const model::LanePattern& p, size_t h, int64_t baseConstant) {
  auto mix = [&](int64_t v) { h ^= std::hash<int64_t>{}(v) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
  mix(static_cast<int64_t>(p.kind));
  mix(p.affine.cx), mix(p.affine.cy), mix(p.affine.cz);
  mix(baseConstant), mix(p.base.unknownAlignment), mix(p.base.blockCycle);
  mix(static_cast<int64_t>(p.threadOffsets.size()));
  for (const auto& o : p.threadOffsets) mix(o ? *o : INT64_MIN);
  return h;
}
inline size_t hashOfPattern(const model::LanePattern& p, size_t h = 0) { return hashOfPattern(p, h, p.base.constant); }

// The period modulo which the figures of an access in `space` read its base.
inline int64_t figuresPeriod(model::Space space, const model::Arch& arch) {
  return space == model::Space::Shared ? arch.sharedWavefrontBytes() : arch.sectorBytes;
}

class PeriodicFigures {
 public:
  struct Entry {
    model::Access moved;
    model::AccessFigures figures;
    bool bytesKnown = false;  // `bytes` computed (global accesses only)
    std::optional<model::BlockBytes> bytes;
  };

  // The figures of `access` in a block of shape `block`: analyzeAccess's, and blockBytes's
  // when `withBytes` (global accesses). One object serves one block shape and one arch.
  const Entry& at(const model::Access& access, const model::Dim3& block, const model::Arch& arch, bool withBytes) {
    // Looked up without a copy of the access (its lanes' offsets are a block's worth): hashed
    // and compared with the base moved, copied only when a new entry keeps it.
    const int64_t period = figuresPeriod(access.space, arch);
    const int64_t c = access.pattern.base.constant;
    const int64_t movedConstant = ((c % period) + period) % period;
    size_t h = hashOfPattern(access.pattern, static_cast<size_t>(access.bytesPerLane), movedConstant);
    h = h * 31 + static_cast<size_t>(access.space) * 7 + static_cast<size_t>(access.kind) * 3 + access.sameWordSerialised;
    const auto sameMoved = [&](const model::Access& kept) {
      const model::LanePattern& a = kept.pattern;
      const model::LanePattern& b = access.pattern;
      return kept.space == access.space && kept.kind == access.kind && kept.bytesPerLane == access.bytesPerLane &&
             kept.sameWordSerialised == access.sameWordSerialised && kept.objectBytes == access.objectBytes &&
             kept.mostSectors == access.mostSectors &&
             a.kind == b.kind && a.affine == b.affine &&
             a.base.constant == movedConstant && a.base.unknownAlignment == b.base.unknownAlignment &&
             a.base.blockCycle == b.base.blockCycle && a.threadOffsets == b.threadOffsets;
    };
    Entry* e = nullptr;
    for (auto [it, end] = index_.equal_range(h); it != end && !e; ++it)
      if (sameMoved(entries_[it->second].moved)) e = &entries_[it->second];
    if (!e) {
      // Kept for a whole kernel (lane_evaluator.h, IterationMemo::figuresIn): bounded, since an
      // enumerated pattern keeps a block's worth of lane offsets. The caller reads the entry
      // returned before its next call, so forgetting the others here is safe.
      if (entries_.size() == kMaxEntries) {
        entries_.clear();
        index_.clear();
      }
      index_.emplace(h, entries_.size());
      e = &entries_.emplace_back();
      e->figures = model::analyzeAccess(access, block, arch);
      e->moved = access;
      e->moved.pattern.base.constant = movedConstant;
    }
    if (withBytes && !e->bytesKnown) {
      e->bytes = model::blockBytes(access, block, arch);
      e->bytesKnown = true;
    }
    return *e;
  }

 private:
  static constexpr size_t kMaxEntries = 4096;
  std::deque<Entry> entries_;  // a deque: the references handed out stay valid until a clear
  std::unordered_multimap<size_t, size_t> index_;
};

// The same reuse for a group of accesses (access_groups.cpp, evaluateGroup; defined there).
// One listed iteration of a group: for each member, the sums over the warps of the block in
// which it has an active lane of the union's sectors, ideal sectors and runs, the members'
// own sectors, and the count of those warps. `patterns[m]` and `bytes[m]` are member m's.
// evaluateGroup adds these up over the iterations, and reuses them for an iteration whose
// patterns are another's moved by whole sectors (the counts are the same).
struct MemberWarpSums {
  int64_t sectors = 0, idealSectors = 0, memberSectors = 0, sectorRuns = 0, requests = 0;
  bool operator==(const MemberWarpSums&) const = default;
};
std::vector<MemberWarpSums> groupWarpSums(const std::vector<model::LanePattern>& patterns,
                                          const std::vector<int>& bytes, const model::Dim3& block,
                                          const model::Arch& arch);

}  // namespace coalesce::analysis
