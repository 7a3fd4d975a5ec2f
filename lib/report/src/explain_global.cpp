#include <algorithm>
#include <map>
#include <numeric>

#include <fmt/format.h>

#include "coalesce/model/global_model.h"
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
  const auto lanes = warpAddresses(site, arch, warp, arch.sectorBytes);
  if (!lanes) {
    if (const auto& r = site.figures.sectorRange)
      out += fmt::format("the addresses come from loaded data: {} to {} sectors per request; nothing to draw\n",
                         number(r->first), number(r->second));
    else
      out += "no lane addresses for this warp; nothing to draw\n";
    return out;
  }
  const int64_t S = arch.sectorBytes, B = site.access.bytesPerLane;
  std::vector<int64_t> active;
  int64_t cell = std::gcd(S, B);  // the largest cell that never splits a lane's bytes
  for (const auto& a : *lanes)
    if (a) {
      active.push_back(*a);
      cell = std::gcd(cell, ((*a % S) + S) % S);
    }
  if (cell == 0) cell = std::gcd(S, B);
  const model::WarpSectors w = model::countSectors(active, static_cast<int>(B), arch);
  out += fmt::format("this warp: {} sectors (ideal {}); {} of the {} bytes moved are used\n\n", w.sectors,
                     w.idealSectors, w.uniqueBytes, w.sectors * S);
  if (active.empty()) return out;

  // Sector of each lane (its first byte), numbered from the lowest sector touched.
  const int64_t first = floorDiv(*std::min_element(active.begin(), active.end()), S);
  std::vector<std::string> perLane;
  std::map<int64_t, std::vector<int>> lanesOfSector;
  std::map<int64_t, std::vector<bool>> used;  // sector -> cells used
  const int64_t cells = S / cell;
  for (size_t k = 0; k < lanes->size(); ++k) {
    if (!(*lanes)[k]) {
      perLane.push_back("-");
      continue;
    }
    const int64_t a = *(*lanes)[k];
    perLane.push_back(fmt::format("{}", floorDiv(a, S) - first));
    for (int64_t byte = a; byte < a + B; byte += cell) {
      const int64_t s = floorDiv(byte, S);
      auto& v = used.try_emplace(s, std::vector<bool>(static_cast<size_t>(cells), false)).first->second;
      v[static_cast<size_t>((byte - s * S) / cell)] = true;
      auto& l = lanesOfSector[s];
      if (l.empty() || l.back() != static_cast<int>(k)) l.push_back(static_cast<int>(k));
    }
  }
  out += "sector each lane reads (- = inactive):\n" + laneRows(perLane) + "\n";
  out += fmt::format("sector  offset  {:<{}}  lanes   (# = used, . = moved for nothing, one cell = {} bytes)\n",
                     "bytes", static_cast<size_t>(std::max<int64_t>(cells, 5)), cell);
  for (const auto& [s, cellsUsed] : used) {
    std::string bar;
    for (bool u : cellsUsed) bar += u ? '#' : '.';
    out += fmt::format("{:>6}  {:>6}  {:<{}}  {}\n", s - first, (s - first) * S, bar,
                       static_cast<size_t>(std::max<int64_t>(cells, 5)), laneRanges(lanesOfSector[s]));
  }
  return out;
}

}  // namespace coalesce::report::detail
