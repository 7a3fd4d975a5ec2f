#include "coalesce/model/shared_model.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "math_util.h"

namespace coalesce::model {

using detail::ceilDiv;
using detail::floorDiv;
using detail::floorMod;

int64_t bankOf(int64_t byteAddress, const Arch& arch) {
  return floorMod(floorDiv(byteAddress, arch.bankWidthBytes), arch.sharedBanks);
}

WarpWavefronts countWavefronts(std::span<const std::optional<int64_t>> lanes, int bytesPerLane, const Arch& arch) {
  WarpWavefronts w;
  const size_t phaseLanes = static_cast<size_t>(arch.sharedPhaseLanes(bytesPerLane));
  for (size_t first = 0; first < lanes.size(); first += phaseLanes) {
    const size_t last = std::min(lanes.size(), first + phaseLanes);
    // Distinct words per bank inside this phase: lanes that read the same word share
    // one bank slot (broadcast), different words in one bank serialise.
    std::set<int64_t> words;
    for (size_t k = first; k < last; ++k) {
      if (!lanes[k]) continue;
      ++w.activeLanes;
      const int64_t a = *lanes[k];
      for (int64_t word = floorDiv(a, arch.bankWidthBytes); word <= floorDiv(a + bytesPerLane - 1, arch.bankWidthBytes);
           ++word)
        words.insert(word);
    }
    if (words.empty()) continue;
    std::map<int64_t, int64_t> perBank;
    int64_t busiest = 0;
    for (int64_t word : words) busiest = std::max(busiest, ++perBank[floorMod(word, arch.sharedBanks)]);
    w.wavefronts += busiest;
    w.maxWaysInPhase = std::max(w.maxWaysInPhase, busiest);
    w.idealWavefronts += ceilDiv(static_cast<int64_t>(words.size()), arch.sharedBanks);
  }
  return w;
}

double conflictDegree(const WarpWavefronts& w) {
  return w.idealWavefronts == 0 ? 1.0 : static_cast<double>(w.wavefronts) / static_cast<double>(w.idealWavefronts);
}

}  // namespace coalesce::model
