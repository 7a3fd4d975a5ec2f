#include <algorithm>

#include <fmt/format.h>

#include "coalesce/html/warp_layout.h"
#include "explain_common.h"
#include "explain_pictures.h"
#include "format.h"

namespace coalesce::report::detail {

std::string sharedPicture(const AccessSite& site, const model::Arch& arch, int64_t warp) {
  std::string out = warpLine(site, arch, warp);
  if (const auto& s = site.figures.shared)
    out += fmt::format("block average: {} wavefronts per request (ideal {}), conflict degree {}\n",
                       number(s->aligned.wavefronts), number(s->aligned.idealWavefronts),
                       number(s->aligned.conflictDegree));
  const auto layout = html::sharedWarpLayout(site.access, site.block.dim, arch, warp);
  if (!layout) {
    if (const auto& r = site.figures.wavefrontRange)
      out += fmt::format("the addresses come from loaded data: {} to {} wavefronts per request; nothing to draw\n",
                         number(r->first), number(r->second));
    else
      out += "no lane addresses for this warp; nothing to draw\n";
    return out;
  }
  const model::WarpWavefronts& w = layout->counts;
  out += fmt::format("this warp: {} wavefronts (ideal {}), phases of {} lanes\n", w.wavefronts, w.idealWavefronts,
                     layout->phaseLanes);
  out += "each row is one wavefront; a cell shows the lane a bank serves (* = several lanes share that word)\n";

  // Banks in groups of 16 per block of rows keeps the picture under 80 columns; a layout
  // choice, not a property of the hardware.
  constexpr int kBanksPerRow = 16;
  for (const auto& phase : layout->phases) {
    const size_t rows = phase.wavefronts;
    out += fmt::format("\nphase {} (lanes {}-{}): {} wavefront{}\n", phase.firstLane / layout->phaseLanes + 1,
                       phase.firstLane, phase.endLane - 1, rows, rows == 1 ? "" : "s");
    for (int group = 0; group < arch.sharedBanks; group += kBanksPerRow) {
      const int end = std::min(arch.sharedBanks, group + kBanksPerRow);
      std::string header = "          bank";
      for (int b = group; b < end; ++b) header += fmt::format(" {:>3}", b);
      out += header + "\n";
      for (size_t r = 0; r < rows; ++r) {
        std::string row = fmt::format("  wavefront {:>2}", r + 1);
        for (int b = group; b < end; ++b) {
          auto it = phase.wordsOfBank.find(b);
          if (it == phase.wordsOfBank.end() || it->second.size() <= r) {
            row += "   .";
            continue;
          }
          const std::vector<int>& readers = it->second[r];
          row += fmt::format(" {:>3}", fmt::format("{}{}", readers.front(), readers.size() > 1 ? "*" : ""));
        }
        out += row + "\n";
      }
    }
  }
  return out;
}

}  // namespace coalesce::report::detail
