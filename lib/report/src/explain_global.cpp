#include <algorithm>

#include <fmt/format.h>

#include "coalesce/html/warp_layout.h"
#include "explain_common.h"
#include "explain_pictures.h"
#include "format.h"

namespace coalesce::report::detail {

std::string globalPicture(const AccessSite& site, const model::Arch& arch, int64_t warp) {
  std::string out = warpLine(site, arch, warp);
  if (const auto& g = site.figures.global)
    out += fmt::format("block average: {} sectors per request (ideal {}), eta = {}\n",
                       number(g->aligned.sectorsPerRequest), number(g->aligned.idealSectors),
                       percent(g->aligned.efficiency));
  const auto layout = html::globalWarpLayout(site.access, site.block.dim, arch, warp);
  if (!layout) {
    if (const auto& r = site.figures.sectorRange) {
      out += fmt::format("the addresses come from loaded data: {} to {} sectors per request; nothing to draw\n",
                         number(r->first), number(r->second));
      // Fields of one record read through the same index (AccessGroup::gather): judged together.
      if (site.group.gather) out += gatheredRecordRange(site.group, ": ") + "\n";
    } else
      out += "no lane addresses for this warp; nothing to draw\n";
    return out;
  }
  const int64_t S = arch.sectorBytes;
  const model::WarpSectors& w = layout->counts;
  out += fmt::format("this warp: {} sectors (ideal {}); {} of the {} bytes moved are used\n\n", w.sectors,
                     w.idealSectors, w.uniqueBytes, w.sectors * S);
  if (layout->sectors.empty()) return out;

  std::vector<std::string> perLane;
  for (const auto& s : layout->sectorOfLane) perLane.push_back(s ? fmt::format("{}", *s) : "-");
  const int64_t cells = S / layout->cellBytes;
  out += "sector each lane reads (- = inactive):\n" + laneRows(perLane) + "\n";
  out += fmt::format("sector  offset  {:<{}}  lanes   (# = used, . = moved for nothing, one cell = {} bytes)\n",
                     "bytes", static_cast<size_t>(std::max<int64_t>(cells, 5)), layout->cellBytes);
  for (const auto& sector : layout->sectors) {
    std::string bar;
    for (bool u : sector.used) bar += u ? '#' : '.';
    out += fmt::format("{:>6}  {:>6}  {:<{}}  {}\n", sector.index, sector.index * S, bar,
                       static_cast<size_t>(std::max<int64_t>(cells, 5)), laneRanges(sector.lanes));
  }
  return out;
}

}  // namespace coalesce::report::detail
