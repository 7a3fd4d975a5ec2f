// The warp pictures of the HTML report as inline SVG: the 32 lanes of one warp against the
// 32-byte sectors their bytes fall in (global), or the 32 banks against the wavefronts of
// each phase (shared). The layouts are warp_layout.h's, the ones --explain prints as text.
// Styled by the page's classes (lib/html/src/page_assets.cpp); no text from a source file is
// drawn, only numbers.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "coalesce/model/access.h"
#include "coalesce/model/arch.h"
#include "coalesce/records/records.h"

namespace coalesce::html {

struct WarpPicture {
  std::string content;       // the drawing, without its <svg> element
  double width = 0, height = 0;
  std::string summary;       // "8 sectors (ideal 4); 128 of the 256 bytes moved are used"
};

// nullopt when the pattern gives no lane addresses (indirect, unknown), the warp does not
// exist, or the space is neither global nor shared.
std::optional<WarpPicture> warpPicture(const model::Access& access, const model::Dim3& block,
                                       const model::Arch& arch, int64_t warp);

// A warp a branch splits: one row per path the warp runs, one after the other (the lanes
// whose condition is true, then those whose is false; for a switch, one row per value), each
// lane drawn in the row of its path. nullopt when the branch split no warp.
std::optional<WarpPicture> branchPicture(const LaneSplit& split, BranchKind kind);

// The threads of a block at a barrier (BarrierSite::reachByWarp): one row per warp, runs of
// identical warps as one row ("w 2-7"), each lane blue when it reaches the barrier, an empty
// square when it does not, purple when unknown. nullopt when there are no warps.
std::optional<WarpPicture> reachPicture(const std::vector<std::string>& reachByWarp);

// The threads of a block on a branch (LaneSplit::byWarp, `values` its blockValues): one row
// per warp (runs of identical warps as one row), each lane in the colour of its path (the row
// colours of branchPicture: a condition's true side blue, its false side orange), blank when it
// does not reach the branch, purple when its value is unknown. nullopt when there are no warps.
std::optional<WarpPicture> blockPathsPicture(const std::vector<std::string>& byWarp,
                                             const std::vector<std::string>& values, BranchKind kind);

// The pictures of one page, each drawing written once: many findings of a tree draw the same
// warp (a kernel copied across files, a template's instantiations), so each <svg> in a
// finding is a <use> of a <symbol> kept at the end of the page, which keeps the page of a
// large tree small (docs/html-report.md). Without JavaScript too: <use> is plain SVG.
class PictureSymbols {
 public:
  // The <svg> element that shows `picture`, its drawing kept once.
  std::string svg(const WarpPicture& picture);
  // Every drawing, as <symbol> elements in a hidden <svg>; empty when none was shown.
  std::string symbols() const;

 private:
  std::map<std::string, size_t> ids_;  // drawing -> symbol number
  std::vector<const std::string*> order_;
};

}  // namespace coalesce::html
