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

}  // namespace coalesce::analysis
