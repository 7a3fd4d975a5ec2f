// Warp geometry: which threads of a block form each warp (x fastest, then y, then z).
#pragma once

#include <cstdint>
#include <vector>

#include "coalesce/model/arch.h"

namespace coalesce::model {

struct Dim3 {
  int64_t x = 1, y = 1, z = 1;
  int64_t volume() const { return x * y * z; }
  bool operator==(const Dim3&) const = default;
};

struct ThreadIdx {
  int64_t x = 0, y = 0, z = 0;
  bool operator==(const ThreadIdx&) const = default;
};

// threadIdx of the thread with linear id `linear` (x fastest) in a block.
ThreadIdx threadFromLinear(const Dim3& block, int64_t linear);

// Number of warps in a block; the last one may be partial.
int64_t warpCount(const Dim3& block, const Arch& arch);

// The threads of warp `warp` of a block, lane 0 first. Shorter than warpSize for a
// partial last warp.
std::vector<ThreadIdx> warpThreads(const Dim3& block, int64_t warp, const Arch& arch);

}  // namespace coalesce::model
