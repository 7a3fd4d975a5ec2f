// How the warps of one block share the bytes of one global load: each warp's distinct
// bytes (and sectors) added up, against the distinct bytes (and sectors) of the whole block.
// When several warps read the same bytes, a shared-memory tile would fetch them once
// (docs/rules/shared-tiling-opportunity.md). Reuse inside one warp (a broadcast) does not
// count: each warp's bytes are counted once.
#pragma once

#include <cstdint>
#include <optional>

#include "coalesce/model/access.h"
#include "coalesce/model/arch.h"
#include "coalesce/model/geometry.h"

namespace coalesce::model {

struct BlockBytes {
  int64_t requestedBytes = 0;  // sum over warps of the distinct bytes each asks for
  int64_t distinctBytes = 0;   // distinct bytes of the whole block
  int64_t warpSectors = 0;     // sum over warps of the sectors each touches
  int64_t blockSectors = 0;    // distinct sectors of the whole block
  int64_t warps = 0;           // warps with an active lane
};

// Nothing for an access whose addresses are not known per lane (indirect, unknown). The
// sectors assume the base aligned as its known part says (the `aligned` case of the figures).
std::optional<BlockBytes> blockBytes(const Access& access, const Dim3& block, const Arch& arch);

}  // namespace coalesce::model
