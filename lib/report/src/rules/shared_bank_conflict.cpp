#include "shared_bank_conflict.h"

#include <fmt/format.h>

#include "../access_cause.h"
#include "../notes.h"
#include "../what_if.h"
#include "access_finding.h"
#include "shared_fix.h"

namespace coalesce::report {

using namespace detail;

RuleDescription SharedBankConflict::description() const {
  return {"Shared-memory access has bank conflicts",
          "Shared memory has 32 banks of 4 bytes; in one wavefront each bank delivers one distinct word. "
          "When several lanes of a warp read distinct words of the same bank (s[32 * t], a column of a "
          "32-wide tile), the request is split into as many wavefronts as the busiest bank has words.",
          "Pad each row of a 2D shared array by one element (float tile[32][33]) or swizzle the column "
          "index (col ^ row) so that a column falls in distinct banks; or let consecutive threads read "
          "consecutive words."};
}

std::optional<Finding> SharedBankConflict::checkAccess(const AccessSite& site, const RuleContext& ctx) const {
  if (classify(site, ctx.arch) != Cause::SharedConflict) return std::nullopt;
  const model::SharedFigures f = *sharedFigures(site);
  std::string cause = fmt::format("{} distinct words share one bank", f.maxWaysInPhase);
  if (const std::string stride = sharedStrideText(site, ctx.arch); !stride.empty()) cause = stride + ": " + cause;

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
