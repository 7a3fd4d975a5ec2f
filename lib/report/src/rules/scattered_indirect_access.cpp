#include "scattered_indirect_access.h"

#include <fmt/format.h>

#include "../access_cause.h"
#include "../format.h"
#include "../what_if.h"
#include "access_finding.h"

namespace coalesce::report {

using namespace detail;

RuleDescription ScatteredIndirectAccess::description() const {
  return {"Global access through loaded indices may scatter over one sector per lane",
          "The address comes from data (a[idx[i]]), so the sectors a warp touches depend on the index "
          "values: one when every lane reads the same element, as few as the ideal when the indices are "
          "consecutive, one per lane when they are random. A gather of whole rows through an index (an "
          "embedding lookup with contiguous lanes inside a row) is coalesced and not reported.",
          "Sort or bucket the indices so that the lanes of a warp read neighbouring elements, or restructure "
          "so that a warp reads whole rows through one index."};
}

std::optional<Finding> ScatteredIndirectAccess::checkAccess(const AccessSite& site, const RuleContext& ctx) const {
  if (classify(site, ctx.arch) != Cause::ScatteredIndirect || !site.figures.sectorRange) return std::nullopt;
  const auto [lo, hi] = *site.figures.sectorRange;
  const int64_t bytes = site.figures.activeLanesPerWarp * site.access.bytesPerLane;
  const double ideal = static_cast<double>((bytes + ctx.arch.sectorBytes - 1) / ctx.arch.sectorBytes);
  const double worstEta = hi > 0 ? ideal / hi : 1.0;

  Finding out = accessFinding(
      *this, site, ctx.arch,
      fmt::format("{} goes through loaded indices: {} to {} sectors per request depending on their values (ideal "
                  "{}): eta between {} and 100%",
                  accessPhrase(site), number(lo), number(hi), number(ideal), percent(worstEta)));
  out.notes.push_back(fmt::format(
      "traffic: when every lane hits its own sector, Q_real = Q_useful / eta = {} B / {} = {} B per warp request, "
      "{}x what the warp uses",
      number(ideal * ctx.arch.sectorBytes), percent(worstEta), number(hi * ctx.arch.sectorBytes), number(hi / ideal)));
  out.notes.push_back(fmt::format(
      "fix: sort or bucket the indices so that a warp reads neighbouring elements ({} -> {} "
      "when they are consecutive, {}x less traffic), or let a warp read whole rows through one index",
      number(hi), perRequest(ideal, "sector"), number(hi / ideal)));
  out.efficiency = worstEta;
  model::GlobalFigures worst;
  worst.sectorsPerRequest = hi;
  out.fix = fixIfBetter(withContiguousLanes(withAlignedBase(site.access), site.block.dim), site.block.dim, worst,
                        ctx.arch, "consecutive indices (a sorted index)");
  return out;
}

}  // namespace coalesce::report
