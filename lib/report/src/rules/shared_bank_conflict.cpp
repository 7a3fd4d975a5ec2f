#include "shared_bank_conflict.h"

#include <fmt/format.h>

#include "../access_cause.h"
#include "../format.h"
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
  // An atomic whose lanes meet on the same words: no bank holds two distinct words, the hardware
  // serialises the lanes on each word (lib/model/src/shared_model.cpp). Padding cannot help;
  // combining the warp's values first, then one atomic per word, does.
  if (site.access.sameWordSerialised && f.maxWaysInPhase <= 1) {
    Finding out = accessFinding(
        *this, site, ctx.arch,
        fmt::format("{} needs {} wavefronts per request (ideal {}): its lanes update the same word, which the "
                    "hardware serialises lane by lane ({}-way)",
                    accessPhrase(site), number(f.wavefronts), number(f.idealWavefronts), number(f.conflictDegree)));
    out.notes.push_back(sharedCostNote(f));
    out.notes.push_back(
        "fix: combine the warp's values first (__reduce_add_sync / __reduce_max_sync, or a shuffle reduction) and "
        "let one lane per word issue the atomic; padding or swizzling cannot help, the lanes share one word");
    out.conflictDegree = f.conflictDegree;
    return out;
  }
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
