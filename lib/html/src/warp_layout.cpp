#include "coalesce/html/warp_layout.h"

#include <algorithm>
#include <numeric>

#include "coalesce/model/access_model.h"

namespace coalesce::html {

int64_t floorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

std::optional<LaneAddresses> warpAddresses(const model::Access& access, const model::Dim3& block,
                                           const model::Arch& arch, int64_t warp, int64_t period) {
  const model::LanePattern& p = access.pattern;
  if (p.kind == model::PatternKind::Indirect || p.kind == model::PatternKind::Unknown) return std::nullopt;
  if (warp < 0 || warp >= model::warpCount(block, arch)) return std::nullopt;
  const int64_t base = ((p.base.constant % period) + period) % period;
  auto lanes = model::warpLaneOffsets(p, block, warp, arch);
  for (auto& l : lanes)
    if (l) *l += base;
  return lanes;
}

std::optional<GlobalWarpLayout> globalWarpLayout(const model::Access& access, const model::Dim3& block,
                                                 const model::Arch& arch, int64_t warp) {
  auto lanes = warpAddresses(access, block, arch, warp, arch.sectorBytes);
  if (!lanes) return std::nullopt;
  GlobalWarpLayout out;
  out.lanes = std::move(*lanes);
  const int64_t S = arch.sectorBytes, B = access.bytesPerLane;
  std::vector<int64_t> active;
  int64_t cell = std::gcd(S, B);
  for (const auto& a : out.lanes)
    if (a) {
      active.push_back(*a);
      cell = std::gcd(cell, ((*a % S) + S) % S);
    }
  if (cell == 0) cell = std::gcd(S, B);
  out.cellBytes = cell;
  out.counts = model::countSectors(active, static_cast<int>(B), arch);
  if (active.empty()) return out;

  out.firstSector = floorDiv(*std::min_element(active.begin(), active.end()), S);
  const int64_t cells = S / cell;
  std::map<int64_t, GlobalWarpLayout::Sector> sectors;  // by absolute sector number
  for (size_t k = 0; k < out.lanes.size(); ++k) {
    if (!out.lanes[k]) {
      out.sectorOfLane.push_back(std::nullopt);
      continue;
    }
    const int64_t a = *out.lanes[k];
    out.sectorOfLane.push_back(floorDiv(a, S) - out.firstSector);
    for (int64_t byte = a; byte < a + B; byte += cell) {
      const int64_t s = floorDiv(byte, S);
      auto [it, inserted] = sectors.try_emplace(s);
      GlobalWarpLayout::Sector& sector = it->second;
      if (inserted) {
        sector.index = s - out.firstSector;
        sector.used.assign(static_cast<size_t>(cells), false);
      }
      sector.used[static_cast<size_t>((byte - s * S) / cell)] = true;
      if (sector.lanes.empty() || sector.lanes.back() != static_cast<int>(k)) sector.lanes.push_back(static_cast<int>(k));
    }
  }
  for (auto& [s, sector] : sectors) out.sectors.push_back(std::move(sector));
  return out;
}

std::optional<SharedWarpLayout> sharedWarpLayout(const model::Access& access, const model::Dim3& block,
                                                 const model::Arch& arch, int64_t warp) {
  auto lanes = warpAddresses(access, block, arch, warp, arch.sharedWavefrontBytes());
  if (!lanes) return std::nullopt;
  SharedWarpLayout out;
  out.lanes = std::move(*lanes);
  const int64_t W = arch.bankWidthBytes, B = access.bytesPerLane;
  out.counts = model::countWavefronts(out.lanes, static_cast<int>(B), arch, access.sameWordSerialised);
  out.phaseLanes = static_cast<size_t>(arch.sharedPhaseLanes(static_cast<int>(B)));
  for (size_t first = 0; first < out.lanes.size(); first += out.phaseLanes) {
    SharedWarpLayout::Phase phase;
    phase.firstLane = first;
    phase.endLane = std::min(out.lanes.size(), first + out.phaseLanes);
    // Distinct words per bank in this phase, in address order; lanes reading each word.
    std::map<int64_t, std::map<int64_t, std::vector<int>>> words;
    for (size_t k = first; k < phase.endLane; ++k) {
      if (!out.lanes[k]) continue;
      const int64_t a = *out.lanes[k];
      for (int64_t word = floorDiv(a, W); word <= floorDiv(a + B - 1, W); ++word)
        words[model::bankOf(word * W, arch)][word].push_back(static_cast<int>(k));
    }
    for (auto& [bank, byWord] : words) {
      auto& list = phase.wordsOfBank[bank];
      for (auto& [word, readers] : byWord) list.push_back(std::move(readers));
      phase.wavefronts = std::max(phase.wavefronts, list.size());
    }
    out.phases.push_back(std::move(phase));
  }
  return out;
}

int64_t costliestWarp(const model::Access& access, const model::Dim3& block, const model::Arch& arch) {
  int64_t best = 0, most = -1;
  for (int64_t w = 0; w < model::warpCount(block, arch); ++w) {
    int64_t cost = -1;
    if (access.space == model::Space::Shared) {
      if (auto l = sharedWarpLayout(access, block, arch, w)) cost = l->counts.wavefronts;
    } else if (auto l = globalWarpLayout(access, block, arch, w)) {
      cost = l->counts.sectors;
    }
    if (cost > most) {
      most = cost;
      best = w;
    }
  }
  return best;
}

}  // namespace coalesce::html
