// The two pictures --explain draws, one per memory space. Every size comes from the
// Arch (warp size, sector bytes, banks, bank width), none is written in here.
#pragma once

#include <cstdint>
#include <string>

#include "coalesce/model/arch.h"
#include "coalesce/records/records.h"

namespace coalesce::report::detail {

// Lanes against the sectors they touch: which sector each lane hits, and for each
// sector the bytes used ('#') and moved for nothing ('.'), with the lanes it serves.
std::string globalPicture(const AccessSite& site, const model::Arch& arch, int64_t warp);
// Lanes against banks: one row per wavefront of each phase, the lane each bank serves.
std::string sharedPicture(const AccessSite& site, const model::Arch& arch, int64_t warp);

}  // namespace coalesce::report::detail
