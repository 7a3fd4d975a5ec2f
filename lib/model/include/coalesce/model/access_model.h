// Figures for an access over every warp of a block: the entry point the analysis and
// the verifier call.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "coalesce/model/access.h"
#include "coalesce/model/arch.h"
#include "coalesce/model/geometry.h"

namespace coalesce::model {

// Figures averaged over the warps of a block, weighted equally per warp request,
// which is how the hardware's counters add up (sum of sectors / sum of requests).
struct GlobalFigures {
  double sectorsPerRequest = 0;
  double idealSectors = 0;
  double efficiency = 1;      // sum ideal / sum sectors
  int64_t minSectors = 0;     // over the warps of the block
  int64_t maxSectors = 0;
  bool broadcast = false;     // every warp reads a single address
  int64_t requests = 0;       // warps of the block with at least one active lane
  bool operator==(const GlobalFigures&) const = default;
};

struct SharedFigures {
  double wavefronts = 0;
  double idealWavefronts = 0;
  double conflictDegree = 1;  // sum wavefronts / sum ideal
  int64_t maxWavefronts = 0;
  int64_t maxWaysInPhase = 0;
  int64_t requests = 0;       // warps of the block with at least one active lane
  bool operator==(const SharedFigures&) const = default;
};

// For a base whose alignment is unknown the figures depend on where it falls:
// `aligned` assumes the unknown part is a multiple of the period, `best` and `worst`
// range over every possible placement. When the alignment is known all three agree.
template <class Figures>
struct AlignmentCases {
  Figures aligned, best, worst;
  bool alignmentKnown = true;
  bool operator==(const AlignmentCases&) const = default;
};

struct AccessFigures {
  std::optional<AlignmentCases<GlobalFigures>> global;  // Space::Global
  std::optional<AlignmentCases<SharedFigures>> shared;  // Space::Shared
  // Indirect or unknown patterns: the range every warp falls in.
  std::optional<std::pair<double, double>> sectorRange;
  std::optional<std::pair<double, double>> wavefrontRange;
  int64_t activeLanesPerWarp = 0;  // mean over the block's warps
  // Doubles compare by value (NaN unequal to itself), as the records that hold these do.
  bool operator==(const AccessFigures&) const = default;
};

// Computes the figures of `access` for every warp of a block of shape `block`.
// Constant and local accesses produce no figures (neither optional is set).
AccessFigures analyzeAccess(const Access& access, const Dim3& block, const Arch& arch);

// Lane byte offsets of one warp (relative to the pattern's uniform base), nullopt for
// lanes that do not execute. Exposed for --explain pictures and tests.
std::vector<std::optional<int64_t>> warpLaneOffsets(const LanePattern& p, const Dim3& block, int64_t warp,
                                                    const Arch& arch);

}  // namespace coalesce::model
