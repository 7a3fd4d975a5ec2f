#include "shared_fix.h"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "../notes.h"
#include "../what_if.h"

namespace coalesce::report::detail {

std::string sharedFixNote(const AccessSite& site, const model::Arch& arch) {
  const model::Access& a = site.access;
  const model::SharedFigures f = *sharedFigures(site);
  if (auto padded = withPaddedSharedRow(a, arch)) {
    const model::SharedFigures p = sharedOf(*padded, site.block.dim, arch);
    if (p.wavefronts < f.wavefronts) {
      const model::AffineLanes& l = a.pattern.affine;
      const int64_t row = std::max({std::llabs(l.cx), std::llabs(l.cy), std::llabs(l.cz)}) / a.bytesPerLane;
      return fmt::format("fix: pad each row of the shared array from {} to {} elements, or swizzle the column "
                         "index (col ^ row): {}",
                         row, row + 1, wavefrontGain(f, p));
    }
  }
  model::SharedFigures ideal = f;
  ideal.wavefronts = f.idealWavefronts;
  if (a.pattern.kind == model::PatternKind::Affine) ideal = sharedOf(withUnitStrideX(a), site.block.dim, arch);
  return fmt::format("fix: let consecutive threads access consecutive elements, or swizzle the index: {}",
                     wavefrontGain(f, ideal));
}

std::string sharedStrideText(const AccessSite& site, const model::Arch& arch) {
  if (site.access.pattern.kind != model::PatternKind::Affine) return "";
  const int64_t stride = std::llabs(site.access.pattern.affine.cx);
  return fmt::format("consecutive threads are {} bytes ({} banks) apart", stride, stride / arch.bankWidthBytes);
}

}  // namespace coalesce::report::detail
