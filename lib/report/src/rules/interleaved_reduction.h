// Recognises the interleaved-addressing reduction step of seed 002,
//   for (s = 1; s < blockDim.x; s *= 2) { if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s]; ... }
// from the records alone, by the structure the analysis records (the loops each site sits
// in, the loops a condition's modulus divides by), not by re-reading source text: an `if` on
// the thread whose condition takes a modulus by a variable of an enclosing loop, run on more
// than one pass over the block, with a shared-memory access in that loop up to the first
// barrier after the branch (or on the branch's own line when there is none).
#pragma once

#include <cstdint>
#include <optional>

#include "coalesce/records/records.h"

namespace coalesce::report::detail {

// The loop whose variable the condition divides by, when `branch` is such a step.
std::optional<BranchSite> interleavedReductionLoop(const BranchSite& branch, const AnalysisResult& analysis,
                                                   int64_t warpsPerBlock);

}  // namespace coalesce::report::detail
