#include "wide_shared_access_conflict.h"

#include <fmt/format.h>

#include "../access_cause.h"
#include "../notes.h"
#include "../what_if.h"
#include "access_finding.h"
#include "shared_fix.h"

namespace coalesce::report {

using namespace detail;

RuleDescription WideSharedAccessConflict::description() const {
  return {"64- or 128-bit shared-memory access conflicts within its phases",
          "Accesses wider than a bank are served in phases (half-warps for 8 bytes), and their conflict-free "
          "minimum is already more than one wavefront (2 for a warp of doubles). Conflicts count inside a "
          "phase: a double read with a stride of two elements, or a column of a 32-wide double tile, needs "
          "more wavefronts than that minimum.",
          "Let consecutive threads read consecutive elements, pad rows by one element (double tile[32][33]), "
          "or split the wide access into 32-bit ones when its halves are used by different lanes."};
}

std::optional<Finding> WideSharedAccessConflict::checkAccess(const AccessSite& site, const RuleContext& ctx) const {
  if (classify(site, ctx.arch) != Cause::WideSharedConflict) return std::nullopt;
  const model::SharedFigures f = *sharedFigures(site);
  std::string cause = fmt::format("{}-byte lanes are served {} lanes per phase and {} distinct words share a bank "
                                  "within a phase",
                                  site.access.bytesPerLane, ctx.arch.sharedPhaseLanes(site.access.bytesPerLane),
                                  f.maxWaysInPhase);
  if (const std::string stride = sharedStrideText(site, ctx.arch); !stride.empty()) cause = stride + "; " + cause;

  Finding out = accessFinding(*this, site, ctx.arch, sharedMessage(site, f, cause));
  out.notes.push_back(sharedCostNote(f));
  SharedFix fix = sharedFix(site, ctx.arch);
  out.notes.push_back(std::move(fix.note));
  out.fix = std::move(fix.fixed);
  out.sourceFix = std::move(fix.source);
  out.conflictDegree = f.conflictDegree;
  return out;
}

}  // namespace coalesce::report
