#include "shared_fix.h"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "../notes.h"
#include "../what_if.h"

namespace coalesce::report::detail {

namespace {

// The padding as an edit of the array's declaration, or why there is none: then the swizzle,
// which changes every access of the array together, is a note for the developer.
std::optional<SourceFix> paddingFix(const ArrayPadding& padding) {
  if (padding.array.empty()) return std::nullopt;
  SourceFix fix;
  fix.description = fmt::format("pad '{}' from {} to {}", padding.array, padding.declared, padding.padded);
  if (!padding.edit.empty()) {
    fix.edits.push_back(padding.edit);
    return fix;
  }
  fix.description = fmt::format("pad '{}'", padding.array);
  fix.check = SourceFix::Check::Withheld;
  fix.verdict = fmt::format("no automatic fix: {}; an XOR swizzle (column index c -> c ^ row, the row width a power "
                            "of two) must change every access of '{}' together, so it is left to you",
                            padding.blocked, padding.array);
  return fix;
}

}  // namespace

SharedFix sharedFix(const AccessSite& site, const model::Arch& arch) {
  const model::Access& a = site.access;
  const model::SharedFigures f = *sharedFigures(site);
  if (auto padded = withPaddedSharedRow(a, arch)) {
    const model::SharedFigures p = sharedOf(*padded, site.block.dim, arch);
    if (p.wavefronts > 0 && p.wavefronts < f.wavefronts) {
      const model::AffineLanes& l = a.pattern.affine;
      const int64_t row = std::max({std::llabs(l.cx), std::llabs(l.cy), std::llabs(l.cz)}) / a.bytesPerLane;
      return {fmt::format("fix: pad each row of the shared array from {} to {} elements, or swizzle the column "
                          "index (col ^ row): {}",
                          row, row + 1, wavefrontGain(f, p)),
              FixedAccess{*padded, site.block.dim, fmt::format("rows padded from {} to {} elements", row, row + 1)},
              paddingFix(site.padding)};
    }
  }
  model::SharedFigures ideal = f;
  ideal.wavefronts = f.idealWavefronts;
  std::optional<FixedAccess> fixed;
  if (a.pattern.kind == model::PatternKind::Affine) {
    ideal = sharedOf(withUnitStrideX(a), site.block.dim, arch);
    fixed = fixIfBetter(withUnitStrideX(a), site.block.dim, f, arch, "consecutive threads on consecutive elements");
  } else if (const auto contiguous = withContiguousThreads(a)) {
    // The record's lanes are those of the first iteration listed; the figures average every
    // iteration, so the fix's figure is quoted only when it is the ideal the figures give.
    const model::SharedFigures c = sharedOf(*contiguous, site.block.dim, arch);
    if (c.wavefronts <= f.idealWavefronts + 1e-9) {
      fixed = fixIfBetter(*contiguous, site.block.dim, f, arch, "each thread on the element of its index");
      if (fixed) ideal = c;
    }
  }
  return {checkedFix("let consecutive threads access consecutive elements, or swizzle the index", f, ideal),
          std::move(fixed), std::nullopt};
}

std::string sharedStrideText(const AccessSite& site, const model::Arch& arch) {
  if (site.access.pattern.kind != model::PatternKind::Affine) return "";
  const int64_t stride = std::llabs(site.access.pattern.affine.cx);
  if (stride % arch.bankWidthBytes != 0 || stride == 0)
    return fmt::format("consecutive threads are {} bytes apart", stride);
  const int64_t banks = stride / arch.bankWidthBytes;
  return fmt::format("consecutive threads are {} bytes ({} bank{}) apart", stride, banks, banks == 1 ? "" : "s");
}

}  // namespace coalesce::report::detail
