// One warp of an access laid out against memory: which 32-byte sector each lane's bytes
// fall in and which bytes of each sector are used (global), or which word each bank serves
// in each wavefront (shared). Computed once here from the model's lane offsets; drawn as
// text by --explain (explain_global.cpp, explain_shared.cpp) and as SVG by the HTML report
// (lib/html/src/warp_svg.cpp, also the verify page), so both pictures show the same thing. Every size comes from the Arch.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "coalesce/model/access.h"
#include "coalesce/model/arch.h"
#include "coalesce/model/global_model.h"
#include "coalesce/model/shared_model.h"

namespace coalesce::html {

using LaneAddresses = std::vector<std::optional<int64_t>>;

// Byte address of each lane of the warp, the base placed as the model's aligned case (its
// constant part modulo `period`); nullopt per inactive lane. nullopt when the pattern gives
// no addresses (indirect, unknown) or the warp does not exist.
std::optional<LaneAddresses> warpAddresses(const model::Access& access, const model::Dim3& block,
                                           const model::Arch& arch, int64_t warp, int64_t period);

struct GlobalWarpLayout {
  LaneAddresses lanes;          // byte address per lane
  model::WarpSectors counts;    // this warp's sectors, ideal sectors, distinct bytes
  int64_t cellBytes = 0;        // the largest cell that never splits a lane's bytes
  int64_t firstSector = 0;      // the lowest sector touched (absolute sector number)
  std::vector<std::optional<int64_t>> sectorOfLane;  // relative to firstSector; nullopt: inactive
  struct Sector {
    int64_t index = 0;          // relative to firstSector, increasing
    std::vector<bool> used;     // one per cell: a lane's bytes lie there
    std::vector<int> lanes;     // the lanes whose bytes it carries, increasing
  };
  std::vector<Sector> sectors;  // in address order
};
std::optional<GlobalWarpLayout> globalWarpLayout(const model::Access& access, const model::Dim3& block,
                                                 const model::Arch& arch, int64_t warp);

struct SharedWarpLayout {
  LaneAddresses lanes;
  model::WarpWavefronts counts;
  size_t phaseLanes = 0;  // lanes served together (32, or 16 / 8 for 8- and 16-byte lanes)
  struct Phase {
    size_t firstLane = 0, endLane = 0;  // [firstLane, endLane)
    size_t wavefronts = 0;              // the most distinct words any bank holds in this phase
    // Bank -> its distinct words in address order, each with the lanes reading it.
    std::map<int64_t, std::vector<std::vector<int>>> wordsOfBank;
  };
  std::vector<Phase> phases;
};
std::optional<SharedWarpLayout> sharedWarpLayout(const model::Access& access, const model::Dim3& block,
                                                 const model::Arch& arch, int64_t warp);

// The warp with the most sectors (global) or wavefronts (shared) in the block, the first of
// equals; 0 when the pattern gives no addresses.
int64_t costliestWarp(const model::Access& access, const model::Dim3& block, const model::Arch& arch);

int64_t floorDiv(int64_t a, int64_t b);

}  // namespace coalesce::html
