#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "coalesce/model/shared_model.h"
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
  const auto lanes = warpAddresses(site, arch, warp, arch.sharedWavefrontBytes());
  if (!lanes) {
    if (const auto& r = site.figures.wavefrontRange)
      out += fmt::format("the addresses come from loaded data: {} to {} wavefronts per request; nothing to draw\n",
                         number(r->first), number(r->second));
    else
      out += "no lane addresses for this warp; nothing to draw\n";
    return out;
  }
  const int64_t W = arch.bankWidthBytes, B = site.access.bytesPerLane;
  const model::WarpWavefronts w = model::countWavefronts(*lanes, static_cast<int>(B), arch);
  const size_t phaseLanes = static_cast<size_t>(arch.sharedPhaseLanes(static_cast<int>(B)));
  out += fmt::format("this warp: {} wavefronts (ideal {}), phases of {} lanes\n", w.wavefronts, w.idealWavefronts,
                     phaseLanes);
  out += "each row is one wavefront; a cell shows the lane a bank serves (* = several lanes share that word)\n";

  // Banks in groups of 16 per block of rows keeps the picture under 80 columns; a layout
  // choice, not a property of the hardware.
  constexpr int kBanksPerRow = 16;
  for (size_t first = 0; first < lanes->size(); first += phaseLanes) {
    const size_t last = std::min(lanes->size(), first + phaseLanes);
    // Distinct words per bank in this phase, in address order; lanes reading each word.
    std::map<int64_t, std::map<int64_t, std::vector<int>>> wordsOfBank;
    for (size_t k = first; k < last; ++k) {
      if (!(*lanes)[k]) continue;
      const int64_t a = *(*lanes)[k];
      for (int64_t word = floorDiv(a, W); word <= floorDiv(a + B - 1, W); ++word)
        wordsOfBank[model::bankOf(word * W, arch)][word].push_back(static_cast<int>(k));
    }
    size_t rows = 0;
    for (const auto& [bank, words] : wordsOfBank) rows = std::max(rows, words.size());
    out += fmt::format("\nphase {} (lanes {}-{}): {} wavefront{}\n", first / phaseLanes + 1, first, last - 1, rows,
                       rows == 1 ? "" : "s");
    for (int group = 0; group < arch.sharedBanks; group += kBanksPerRow) {
      const int end = std::min(arch.sharedBanks, group + kBanksPerRow);
      std::string header = "          bank";
      for (int b = group; b < end; ++b) header += fmt::format(" {:>3}", b);
      out += header + "\n";
      for (size_t r = 0; r < rows; ++r) {
        std::string row = fmt::format("  wavefront {:>2}", r + 1);
        for (int b = group; b < end; ++b) {
          auto it = wordsOfBank.find(b);
          if (it == wordsOfBank.end() || it->second.size() <= r) {
            row += "   .";
            continue;
          }
          const std::vector<int>& readers = std::next(it->second.begin(), static_cast<long>(r))->second;
          row += fmt::format(" {:>3}", fmt::format("{}{}", readers.front(), readers.size() > 1 ? "*" : ""));
        }
        out += row + "\n";
      }
    }
  }
  return out;
}

}  // namespace coalesce::report::detail
