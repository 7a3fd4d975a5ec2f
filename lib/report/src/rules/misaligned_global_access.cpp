#include "misaligned_global_access.h"

#include <cstdlib>

#include <fmt/format.h>

#include "../access_cause.h"
#include "../format.h"
#include "../notes.h"
#include "../what_if.h"
#include "access_finding.h"

namespace coalesce::report {

using namespace detail;

RuleDescription MisalignedGlobalAccess::description() const {
  return {"Contiguous global access starts off a sector boundary",
          "The lanes of a warp read one contiguous run, but the run does not start on a 32-byte sector "
          "boundary (a[i + 1], a pointer advanced by a few elements, a row pitch that is not a multiple of "
          "32 bytes), so every request pays one extra sector per run: 5 sectors instead of 4 for floats.",
          "Start each warp's run on a 128-byte boundary: use aligned allocations and offsets that are "
          "multiples of 32 floats, pad row pitches to a multiple of 128 bytes (cudaMallocPitch), or peel "
          "the first iterations of a shifted loop. Reads shifted by one next to an aligned read of the same "
          "array (stencils) mostly hit L1; lower misaligned-global-access.MinEfficiency (to 0.8, say) or use NOLINT there."};
}

std::optional<Finding> MisalignedGlobalAccess::checkAccess(const AccessSite& site, const RuleContext& ctx) const {
  if (classify(site, ctx.arch) != Cause::Misaligned) return std::nullopt;
  const model::GlobalFigures f = *globalFigures(site);
  const model::Access& a = site.access;
  const model::GlobalFigures alignedBase = globalOf(withAlignedBase(a), site.block.dim, ctx.arch);

  std::string cause, fix;
  std::optional<FixedAccess> fixed;
  if (isIdeal(alignedBase)) {
    const int64_t r = ((a.pattern.base.constant % ctx.arch.sectorBytes) + ctx.arch.sectorBytes) % ctx.arch.sectorBytes;
    cause = fmt::format("the lanes are contiguous but the run starts {} bytes past a {}-byte sector boundary", r,
                        ctx.arch.sectorBytes);
    fix = checkedFix(fmt::format("start the run on a {}-byte boundary (aligned allocation, offsets in multiples of "
                                 "{} elements, or peel the first iterations)",
                                 ctx.arch.cacheLineBytes, ctx.arch.cacheLineBytes / a.bytesPerLane),
                     f, alignedBase);
    fixed = fixIfBetter(withAlignedBase(a), site.block.dim, f, ctx.arch, "the run started on a sector boundary");
  } else if (auto runs = withWarpAlignedRuns(a, ctx.arch)) {
    cause = "each warp's lanes form a contiguous run that starts off a sector boundary";
    fix = checkedFix(fmt::format("shift the index so that each warp's run starts on a {}-byte boundary",
                                 ctx.arch.cacheLineBytes),
                     f, globalOf(*runs, site.block.dim, ctx.arch));
    fixed = fixIfBetter(*runs, site.block.dim, f, ctx.arch, "each warp's run started on a sector boundary");
  } else {
    cause = fmt::format("the lanes are contiguous in each row but rows start off sector boundaries (row pitch {} "
                        "bytes is not a multiple of {})",
                        std::llabs(a.pattern.affine.cy), ctx.arch.sectorBytes);
    fix = checkedFix(fmt::format("pad the row pitch to a multiple of {} bytes (cudaMallocPitch does)",
                                 ctx.arch.cacheLineBytes),
                     f, globalOf(withPaddedPitch(a, ctx.arch), site.block.dim, ctx.arch));
    fixed = fixIfBetter(withPaddedPitch(a, ctx.arch), site.block.dim, f, ctx.arch,
                        fmt::format("row pitch padded to a multiple of {} bytes", ctx.arch.cacheLineBytes));
  }
  Finding out = accessFinding(*this, site, ctx.arch, globalMessage(site, f, cause));
  out.notes.push_back(trafficNote(f, ctx.arch));
  out.notes.push_back(std::move(fix));
  out.efficiency = f.efficiency;
  out.fix = std::move(fixed);
  return out;
}

}  // namespace coalesce::report
