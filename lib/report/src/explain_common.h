// Pieces both --explain pictures use (the layouts they draw are lib/html warp_layout.h's).
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
// "0-3, 8, 10-11"
std::string laneRanges(const std::vector<int>& lanes);
// Per-lane values in rows of 16 lanes: "  lanes  0-15:  0  0  1 ...".
std::string laneRows(const std::vector<std::string>& values);

}  // namespace coalesce::report::detail
