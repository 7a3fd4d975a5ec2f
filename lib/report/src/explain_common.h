// Pieces both --explain pictures use.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "coalesce/model/arch.h"
#include "coalesce/records/records.h"

namespace coalesce::report::detail {

// "warp 0 of 8 in block 256x1x1 (launch: launch at k.cu:40)"
std::string warpLine(const AccessSite& site, const model::Arch& arch, int64_t warp);
// Byte address of each lane of the warp, the base placed as the model's aligned case
// (its constant part modulo `period`); nullopt per inactive lane. nullopt when the
// pattern gives no addresses (indirect, unknown) or the warp does not exist.
std::optional<std::vector<std::optional<int64_t>>> warpAddresses(const AccessSite& site, const model::Arch& arch,
                                                                 int64_t warp, int64_t period);
// "0-3, 8, 10-11"
std::string laneRanges(const std::vector<int>& lanes);
// Per-lane values in rows of 16 lanes: "  lanes  0-15:  0  0  1 ...".
std::string laneRows(const std::vector<std::string>& values);

int64_t floorDiv(int64_t a, int64_t b);

}  // namespace coalesce::report::detail
