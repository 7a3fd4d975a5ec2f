// Shared memory: banks, phases, wavefronts and the conflict degree.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "coalesce/model/arch.h"

namespace coalesce::model {

struct WarpWavefronts {
  int64_t wavefronts = 0;       // what the pipeline issues for this request
  int64_t idealWavefronts = 0;  // what a conflict-free layout of the same words needs
  int64_t activeLanes = 0;
  int64_t maxWaysInPhase = 0;   // most distinct words sharing one bank in one phase
};

// `lanes[k]` is the byte address used by lane k, nullopt for an inactive lane.
// Lanes are grouped into phases (Arch::sharedPhaseLanes); inside a phase each bank
// serves one distinct 4-byte word per wavefront and lanes reading the same word share
// it (broadcast). wavefronts = sum over phases of the busiest bank's distinct words.
// `sameWordSerialised` (a shared atomic, Access::sameWordSerialised): lanes on one word
// do not share it, each lane's word counts in its bank (32 lanes on one word: 32
// wavefronts); the ideal still counts distinct words.
WarpWavefronts countWavefronts(std::span<const std::optional<int64_t>> lanes, int bytesPerLane,
                               const Arch& arch, bool sameWordSerialised = false);

// Bank of a byte address: floor(a / bankWidth) mod banks.
int64_t bankOf(int64_t byteAddress, const Arch& arch);

// conflict degree = wavefronts / ideal wavefronts (1 when conflict-free).
double conflictDegree(const WarpWavefronts& w);

}  // namespace coalesce::model
