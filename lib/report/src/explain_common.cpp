#include "explain_common.h"

#include <algorithm>

#include <fmt/format.h>

#include "coalesce/model/access_model.h"
#include "format.h"

namespace coalesce::report::detail {

std::string warpLine(const AccessSite& site, const model::Arch& arch, int64_t warp) {
  std::string from(toString(site.block.source));
  if (!site.block.detail.empty()) from += ": " + site.block.detail;
  return fmt::format("warp {} of {} in block {} ({})\n", warp, model::warpCount(site.block.dim, arch),
                     dims(site.block.dim), from);
}

std::string laneRanges(const std::vector<int>& lanes) {
  std::string out;
  for (size_t i = 0; i < lanes.size();) {
    size_t j = i;
    while (j + 1 < lanes.size() && lanes[j + 1] == lanes[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += i == j ? fmt::format("{}", lanes[i]) : fmt::format("{}-{}", lanes[i], lanes[j]);
    i = j + 1;
  }
  return out;
}

std::string laneRows(const std::vector<std::string>& values) {
  // 16 lanes a row keeps the picture under 80 columns; it is a layout choice, not a
  // property of the hardware.
  constexpr size_t kPerRow = 16;
  size_t width = 1;
  for (const auto& v : values) width = std::max(width, v.size());
  std::string out;
  for (size_t first = 0; first < values.size(); first += kPerRow) {
    const size_t last = std::min(values.size(), first + kPerRow) - 1;
    out += fmt::format("  lanes {:>2}-{:<2}:", first, last);
    for (size_t k = first; k <= last; ++k) out += fmt::format(" {:>{}}", values[k], width);
    out += "\n";
  }
  return out;
}

}  // namespace coalesce::report::detail
