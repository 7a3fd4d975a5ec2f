#include "uncoalesced_global_access.h"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "../access_cause.h"
#include "../cost.h"  // byteSize
#include "../format.h"
#include "../notes.h"
#include "../what_if.h"
#include "access_finding.h"

namespace coalesce::report {

using namespace detail;

namespace {
constexpr int64_t kStrideInUnits = 1000000;  // bytes: from here a stride is written in KB, MB, GB
}  // namespace

RuleDescription UncoalescedGlobalAccess::description() const {
  return {"Global memory access wastes sectors: lanes are strided or scattered",
          "The lanes of a warp touch more 32-byte sectors than their bytes need, so most of each sector "
          "moved is thrown away (eta = ideal sectors / sectors). Typical causes: a[k * i] with k > 1, "
          "blocks narrower than a warp over a row-major array, or an index that permutes the lanes.",
          "Let consecutive threads access consecutive elements. When the algorithm needs the stride, load a "
          "contiguous tile into shared memory (coalesced), then read it there with the stride. Make "
          "blockDim.x a multiple of 32 when rows are short."};
}

std::optional<Finding> UncoalescedGlobalAccess::checkAccess(const AccessSite& site, const RuleContext& ctx) const {
  if (classify(site, ctx.arch) != Cause::Strided) return std::nullopt;
  const model::GlobalFigures f = *globalFigures(site);
  const model::Access& a = site.access;
  const int64_t b = a.bytesPerLane;
  model::GlobalFigures ideal = f;
  ideal.sectorsPerRequest = f.idealSectors;

  std::string cause, fix;
  std::optional<FixedAccess> fixed;
  if (a.pattern.kind == model::PatternKind::Affine && std::llabs(a.pattern.affine.cx) > b) {
    const int64_t stride = std::llabs(a.pattern.affine.cx);
    // A stride of megabytes (a product of sizes, often runtime values taken large: cufinufft's
    // `binsperobinx * binsperobiny * binsperobinz`, 4096 cubed) reads better in units, and its
    // exact value does not matter: every lane's bytes lie in sectors of their own from one
    // sector's stride on (blind panel 29 read 274877906944 bytes as a figure to check).
    if (stride >= kStrideInUnits)
      cause = fmt::format("consecutive threads are {} apart for {}-byte accesses (stride {} elements; any stride from "
                          "{} bytes on gives every lane sectors of its own)",
                          detail::byteSize(static_cast<double>(stride)), b, stride / b,
                          std::max<int64_t>(ctx.arch.sectorBytes, b));
    else
      cause = fmt::format("consecutive threads are {} bytes apart for {}-byte accesses (stride {} elements)", stride, b,
                          stride / b);
    fix = checkedFix(
        "let consecutive threads access consecutive elements, or load a contiguous tile into shared memory "
        "and apply the stride there",
        f, globalOf(withUnitStrideX(a), site.block.dim, ctx.arch));
    fixed = fixIfBetter(withUnitStrideX(a), site.block.dim, f, ctx.arch, "consecutive threads on consecutive elements");
  } else if (a.pattern.kind == model::PatternKind::Affine && site.block.dim.x < ctx.arch.warpSize) {
    cause = fmt::format("blockDim.x = {}: a warp covers several rows, each a separate run of {} bytes",
                        site.block.dim.x, site.block.dim.x * b);
    fix = checkedFix(fmt::format("make blockDim.x a multiple of {} so that a warp reads one contiguous run",
                                 ctx.arch.warpSize),
                     f, ideal);
    model::Dim3 wider = site.block.dim;
    wider.x = ctx.arch.warpSize;
    fixed = fixIfBetter(a, wider, f, ctx.arch, fmt::format("blockDim.x = {}", ctx.arch.warpSize));
  } else {
    cause = fmt::format("the lanes' addresses spread over {} sectors where {} would carry their bytes",
                        number(f.sectorsPerRequest), number(f.idealSectors));
    fix = checkedFix("order the index so that lane k touches the k-th element of a contiguous run", f, ideal);
    fixed = fixIfBetter(withContiguousLanes(a, site.block.dim), site.block.dim, f, ctx.arch,
                        "lane k on the k-th element of one run");
  }
  Finding out = accessFinding(*this, site, ctx.arch, globalMessage(site, f, cause));
  out.notes.push_back(trafficNote(f, ctx.arch));
  out.notes.push_back(std::move(fix));
  out.efficiency = f.efficiency;
  out.fix = std::move(fixed);
  out.fixedByBlockWidth = a.pattern.kind == model::PatternKind::Affine &&
                          std::llabs(a.pattern.affine.cx) <= b && site.block.dim.x < ctx.arch.warpSize;
  return out;
}

}  // namespace coalesce::report
