#include "coalesce/model/shared_model.h"

#include <algorithm>
#include <vector>

#include "math_util.h"

namespace coalesce::model {

using detail::ceilDiv;
using detail::floorDiv;
using detail::floorMod;

int64_t bankOf(int64_t byteAddress, const Arch& arch) {
  return floorMod(floorDiv(byteAddress, arch.bankWidthBytes), arch.sharedBanks);
}

namespace {

// Sorted vectors rather than std::set: a phase has at most 32 lanes, and this runs for
// every warp of every listed iteration (lane_function.cpp), where a node per word costs.
struct Phase {
  std::vector<int64_t> words;      // distinct 4-byte words the phase's lanes touch (sorted)
  std::vector<int64_t> laneWords;  // every lane's words, repeats kept (serialised atomics)
  std::vector<int64_t> addresses;  // distinct lane addresses (sorted)
  int64_t activeLanes = 0;
};

void sortUnique(std::vector<int64_t>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

// Wavefronts for a set of distinct words: each bank serves one distinct word per wavefront.
int64_t busiestBank(const std::vector<int64_t>& words, const Arch& arch) {
  std::vector<int64_t> perBank(static_cast<size_t>(arch.sharedBanks), 0);
  int64_t busiest = 0;
  for (int64_t word : words)
    busiest = std::max(busiest, ++perBank[static_cast<size_t>(floorMod(word, arch.sharedBanks))]);
  return busiest;
}

}  // namespace

WarpWavefronts countWavefronts(std::span<const std::optional<int64_t>> lanes, int bytesPerLane, const Arch& arch,
                               bool sameWordSerialised) {
  WarpWavefronts w;
  const size_t phaseLanes = static_cast<size_t>(arch.sharedPhaseLanes(bytesPerLane));
  std::vector<Phase> phases;
  for (size_t first = 0; first < lanes.size(); first += phaseLanes) {
    Phase p;
    for (size_t k = first; k < std::min(lanes.size(), first + phaseLanes); ++k) {
      if (!lanes[k]) continue;
      ++p.activeLanes;
      const int64_t a = *lanes[k];
      p.addresses.push_back(a);
      for (int64_t word = floorDiv(a, arch.bankWidthBytes); word <= floorDiv(a + bytesPerLane - 1, arch.bankWidthBytes);
           ++word)
        p.words.push_back(word);
    }
    if (sameWordSerialised) p.laneWords = p.words;
    sortUnique(p.addresses);
    sortUnique(p.words);
    phases.push_back(std::move(p));
  }
  // Phases whose lanes all read one address share a wavefront with their neighbours in
  // aligned groups (a uniform LDS.64 is one wavefront, a uniform LDS.128 two, H200).
  const size_t group = static_cast<size_t>(arch.sharedBroadcastPhases(bytesPerLane));
  for (size_t g = 0; g < phases.size(); g += group) {
    const size_t end = std::min(phases.size(), g + group);
    bool allSingle = group > 1 && !sameWordSerialised;
    for (size_t i = g; i < end; ++i) allSingle = allSingle && phases[i].addresses.size() <= 1;
    std::vector<Phase> units;
    if (allSingle) {
      Phase merged;
      for (size_t i = g; i < end; ++i) {
        merged.words.insert(merged.words.end(), phases[i].words.begin(), phases[i].words.end());
        merged.activeLanes += phases[i].activeLanes;
      }
      sortUnique(merged.words);
      units.push_back(std::move(merged));
    } else {
      units.assign(phases.begin() + static_cast<std::ptrdiff_t>(g), phases.begin() + static_cast<std::ptrdiff_t>(end));
    }
    for (const Phase& p : units) {
      w.activeLanes += p.activeLanes;
      if (p.words.empty()) continue;
      const int64_t busiest = busiestBank(p.words, arch);
      // A serialised atomic: every lane's word counts, repeats included.
      w.wavefronts += sameWordSerialised ? busiestBank(p.laneWords, arch) : busiest;
      w.maxWaysInPhase = std::max(w.maxWaysInPhase, busiest);
      w.idealWavefronts += ceilDiv(static_cast<int64_t>(p.words.size()), arch.sharedBanks);
    }
  }
  return w;
}

double conflictDegree(const WarpWavefronts& w) {
  return w.idealWavefronts == 0 ? 1.0 : static_cast<double>(w.wavefronts) / static_cast<double>(w.idealWavefronts);
}

}  // namespace coalesce::model
