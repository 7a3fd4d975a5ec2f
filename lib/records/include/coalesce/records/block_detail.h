// Words of BlockShape::detail (records.h) that a later stage reads, written once.
#pragma once

#include <string_view>

namespace coalesce {

// How BlockShape::detail starts when the kernel's translation unit launches it nowhere (the
// report levels such a kernel's findings: lib/report/src/launch_level.cpp).
inline constexpr std::string_view kNoLaunchFound = "no launch found";

}  // namespace coalesce
