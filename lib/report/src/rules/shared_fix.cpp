#include "shared_fix.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

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
  // The least padding of the rows that does best: one element mostly (a column of a 32-wide
  // tile); more where the block is narrower than a warp and its rows meet in the banks (8x8
  // threads over rows of 65 words: padded by one, a warp's 4 rows still overlap; at 72 they
  // fall side by side). Only the one-element padding has a declaration edit (site.padding).
  struct Padding {
    int64_t elements = 0;
    model::Access access;
    model::SharedFigures figures;
  };
  std::optional<Padding> best;
  for (int64_t k = 1; k <= arch.warpSize; ++k) {
    const auto padded = withPaddedSharedRow(a, arch, k);
    if (!padded) break;
    const model::SharedFigures p = sharedOf(*padded, site.block.dim, arch);
    if (p.wavefronts > 0 && p.wavefronts < f.wavefronts && (!best || p.wavefronts < best->figures.wavefronts - 1e-9))
      best = Padding{k, *padded, p};
    if (best && best->figures.wavefronts <= f.idealWavefronts + 1e-9) break;
  }
  if (best) {
    const model::AffineLanes& l = a.pattern.affine;
    const int64_t row = std::max({std::llabs(l.cx), std::llabs(l.cy), std::llabs(l.cz)}) / a.bytesPerLane;
    const int64_t to = row + best->elements;
    FixedAccess fixed{best->access, site.block.dim, fmt::format("rows padded from {} to {} elements", row, to)};
    if (best->elements == 1)
      return {fmt::format("fix: pad each row of the shared array from {} to {} elements, or swizzle the column "
                          "index (col ^ row): {}",
                          row, to, wavefrontGain(f, best->figures)),
              std::move(fixed), paddingFix(site.padding)};
    return {fmt::format("fix: pad each row of the shared array from {} to {} elements, so that the rows a warp holds "
                        "fall in distinct banks: {}",
                        row, to, wavefrontGain(f, best->figures)),
            std::move(fixed), std::nullopt};
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
  const model::AffineLanes& lanes = site.access.pattern.affine;
  const int64_t stride = std::llabs(lanes.cx);
  // A block narrower than a warp (8x8: a warp holds 4 rows of 8 threads) whose rows, not its
  // neighbouring threads, meet in the banks: the x stride alone would not conflict (sputnik's
  // depthwise tile store, `*ptr` 4 bytes apart, 4-way on rows 65 words apart). Said so, for
  // words of at most a bank, where one phase is the whole warp.
  const model::Dim3 block = site.block.dim;
  const int64_t bank = arch.bankWidthBytes, banks = arch.sharedBanks;
  if (block.x > 0 && block.x < arch.warpSize && block.y > 1 && lanes.cy != 0 && site.access.bytesPerLane <= bank) {
    const auto waysOf = [&](int64_t n, auto offset) {
      std::vector<std::vector<int64_t>> words(static_cast<size_t>(banks));
      size_t ways = 0;
      for (int64_t i = 0; i < n; ++i) {
        const int64_t word = offset(i) / bank;
        auto& in = words[static_cast<size_t>(((word % banks) + banks) % banks)];
        if (std::find(in.begin(), in.end(), word) == in.end()) in.push_back(word);
        ways = std::max(ways, in.size());
      }
      return ways;
    };
    const int64_t rows = std::min<int64_t>(arch.warpSize / block.x, block.y);
    const size_t inRow = waysOf(block.x, [&](int64_t i) { return lanes.cx * i; });
    const size_t inWarp = waysOf(rows * block.x, [&](int64_t i) { return lanes.cx * (i % block.x) + lanes.cy * (i / block.x); });
    if (rows > 1 && inWarp > inRow) {
      const int64_t rowBytes = std::llabs(lanes.cy);
      const std::string inRowText =
          inRow > 1 ? fmt::format("consecutive threads are {} bytes apart, {}-way within a row, and ", stride, inRow) : "";
      return fmt::format("{}blockDim.x = {}: a warp holds {} rows of {} threads, {} bytes apart{}", inRowText, block.x,
                         rows, block.x, rowBytes,
                         rowBytes % (bank * banks) == 0 ? fmt::format(" (a multiple of {}: the same banks)", bank * banks) : "");
    }
  }
  if (stride % bank != 0 || stride == 0) return fmt::format("consecutive threads are {} bytes apart", stride);
  const int64_t strideBanks = stride / bank;
  return fmt::format("consecutive threads are {} bytes ({} bank{}) apart", stride, strideBanks, strideBanks == 1 ? "" : "s");
}

}  // namespace coalesce::report::detail
