#include "inverted_thread_axes.h"

#include <cstdlib>

#include <fmt/format.h>

#include "../access_cause.h"
#include "../notes.h"
#include "../what_if.h"
#include "access_finding.h"

namespace coalesce::report {

using namespace detail;

RuleDescription InvertedThreadAxes::description() const {
  return {"2D block indexes the contiguous dimension with threadIdx.y",
          "In a 2D block the lanes of a warp are consecutive in threadIdx.x. When threadIdx.x picks the row "
          "and threadIdx.y the column of a row-major array (m[tx * width + ty]), neighbouring lanes are a "
          "whole row apart and every lane needs its own sector.",
          "Swap the thread axes so that threadIdx.x indexes the contiguous (last) dimension. When one side "
          "must stay column-wise, as in a transpose, stage through a shared tile padded to 33 columns (or "
          "swizzled) so that both the global read and the global write are coalesced."};
}

std::optional<Finding> InvertedThreadAxes::checkAccess(const AccessSite& site, const RuleContext& ctx) const {
  if (classify(site, ctx.arch) != Cause::InvertedAxes) return std::nullopt;
  const model::GlobalFigures f = *globalFigures(site);
  const model::AffineLanes& l = site.access.pattern.affine;
  const std::string cause =
      fmt::format("threadIdx.x steps {} bytes and threadIdx.y steps {}: neighbouring lanes are a row apart",
                  std::llabs(l.cx), std::llabs(l.cy));

  Finding out = accessFinding(*this, site, ctx.arch, globalMessage(site, f, cause));
  out.notes.push_back(trafficNote(f, ctx.arch));
  out.notes.push_back(
      checkedFix("swap the thread axes so that threadIdx.x indexes the contiguous dimension", f,
                 globalOf(withSwappedXY(site.access), site.block.dim, ctx.arch)) +
      fmt::format("; in a transpose, stage through a shared tile padded to {} columns (or swizzled)",
                  ctx.arch.warpSize + 1));
  out.efficiency = f.efficiency;
  out.fix = fixIfBetter(withSwappedXY(site.access), site.block.dim, f, ctx.arch, "threadIdx.x and threadIdx.y swapped");
  return out;
}

}  // namespace coalesce::report
