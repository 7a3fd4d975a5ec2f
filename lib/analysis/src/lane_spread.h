// How far apart the addresses of one warp's lanes can lie when they depend on loaded data
// (docs/findings.md, "Gathers with a bounded index"). A histogram's `atomicAdd(hist + ((key &
// mask) >> shift), 1)` scatters its lanes only over `mask >> shift` + 1 counters whatever the
// keys: with a radix of one bit, two ints, at most 2 sectors, not "1 to 32 sectors per request"
// (cudahandbook's radixSort, blind panel 40, judged false). The bound caps the data-dependent
// range as the size of a small object does (model::Access::objectBytes).
#pragma once

#include <cstdint>
#include <optional>

#include "coalesce/model/geometry.h"
#include "symbolic.h"

namespace coalesce::analysis {

// The most two lanes of one warp of `block` can differ in `offset` (bytes), under `b` (the
// launch's and the iteration's values: what a mask, shift or divisor is); nullopt when a loaded
// or varying value reaches the address through anything but a bounding operation (`& m` with
// m >= 0, `% m`, `>> s` or `/ d` of a bounded value, sums and constant multiples of bounded
// values, the thread index's own spread within a warp).
std::optional<int64_t> laneSpread(const ExprRef& offset, const Bindings& b, const model::Dim3& block, int warpSize);

// The most sectors one warp's request can touch when its lanes fall in groups that load their
// data-dependent terms from the same addresses (sputnik's SpMM: the 8 lanes of a row of an
// 8x4 block read one column index from `column_indices_tile[32 * threadIdx.y + k]` and add
// `threadIdx.x`): lanes of one group hold the same loaded values, so each group is one run of
// the thread-only terms wherever its loaded base puts it: its sectors with that base on a
// sector boundary, as the figures take every base the code does not fix (a uniform loaded
// one included). The sum over the groups, the most of any warp of `block`; nullopt when a loaded value is
// multiplied by or mixed with the thread index outside the loads, or a load's address is not
// a function of the thread index and `b` alone (a load through a loaded address).
std::optional<int64_t> sharedIndexSectors(const ExprRef& offset, const Bindings& b, const model::Dim3& block, int warpSize,
                                          int64_t bytesPerLane, int64_t sectorBytes);

}  // namespace coalesce::analysis
