// Global memory: 32-byte sectors per warp request and coalescing efficiency.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "coalesce/model/arch.h"

namespace coalesce::model {

// One warp's request: the byte address of each active lane (inactive lanes are
// simply absent) and the bytes each lane moves.
struct WarpSectors {
  int64_t sectors = 0;        // distinct sectors touched
  int64_t idealSectors = 0;   // fewest sectors that could carry the distinct bytes
  int64_t uniqueBytes = 0;    // distinct bytes requested by the warp
  int64_t activeLanes = 0;
};

// Exact, by enumeration of the lanes' byte ranges.
WarpSectors countSectors(std::span<const int64_t> laneAddresses, int bytesPerLane, const Arch& arch);

// The same for byte ranges of different widths: what one warp's group of accesses (the
// fields of one record, the halves of a wide element, neighbouring stencil taps) touches
// together. Each range is (address, bytes).
struct ByteRange {
  int64_t address = 0;
  int64_t bytes = 0;
  bool operator<(const ByteRange& o) const { return address < o.address || (address == o.address && bytes < o.bytes); }
};
WarpSectors countSectorsOfRanges(std::span<const ByteRange> ranges, const Arch& arch);
// The same for ranges already in ByteRange's order (a caller that sorts them once for
// several counts: lib/analysis/src/access_groups.cpp).
WarpSectors countSectorsOfSortedRanges(std::span<const ByteRange> sorted, const Arch& arch);

// Closed form for one run of lanes at a constant stride (address = start + k*stride,
// k = 0..lanes-1), which is what an affine pattern gives inside a row of threadIdx.x.
// Same answer as countSectors on the enumerated addresses; used as the fast path and
// cross-checked against it by the property tests.
WarpSectors sectorsOfStridedRun(int64_t start, int64_t stride, int64_t lanes, int bytesPerLane, const Arch& arch);

// eta = ideal sectors / sectors: equals the seed's bytes requested / (32 x sectors)
// whenever lanes ask for distinct, sector-filling bytes, and reads 100% for a
// broadcast (the seed's asterisk). Returns 1 for an empty request.
double efficiency(const WarpSectors& w);

}  // namespace coalesce::model
