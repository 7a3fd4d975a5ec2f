#include "what_if.h"

#include <algorithm>
#include <cstdlib>

namespace coalesce::report::detail {

namespace {
int64_t roundUp(int64_t value, int64_t multiple) {
  const int64_t magnitude = std::llabs(value);
  const int64_t rounded = (magnitude + multiple - 1) / multiple * multiple;
  return value < 0 ? -rounded : rounded;
}
}  // namespace

std::optional<model::GlobalFigures> globalFigures(const AccessSite& site) {
  if (!site.figures.global) return std::nullopt;
  return site.figures.global->aligned;
}

std::optional<model::SharedFigures> sharedFigures(const AccessSite& site) {
  if (!site.figures.shared) return std::nullopt;
  return site.figures.shared->aligned;
}

model::GlobalFigures globalOf(const model::Access& access, const model::Dim3& block, const model::Arch& arch) {
  auto f = model::analyzeAccess(access, block, arch);
  return f.global ? f.global->aligned : model::GlobalFigures{};
}

model::SharedFigures sharedOf(const model::Access& access, const model::Dim3& block, const model::Arch& arch) {
  auto f = model::analyzeAccess(access, block, arch);
  return f.shared ? f.shared->aligned : model::SharedFigures{};
}

model::Access withLanes(const model::Access& access, model::AffineLanes lanes) {
  model::Access out = access;
  out.pattern = model::LanePattern::makeAffine(lanes, access.pattern.base);
  return out;
}

model::Access withAlignedBase(const model::Access& access) {
  model::Access out = access;
  out.pattern.base = model::UniformOffset{};
  return out;
}

model::Access withPaddedPitch(const model::Access& access, const model::Arch& arch) {
  model::Access out = withAlignedBase(access);
  if (out.pattern.kind == model::PatternKind::Affine) {
    out.pattern.affine.cy = roundUp(out.pattern.affine.cy, arch.cacheLineBytes);
    out.pattern.affine.cz = roundUp(out.pattern.affine.cz, arch.cacheLineBytes);
  }
  return out;
}

std::optional<model::Access> withWarpAlignedRuns(const model::Access& access, const model::Arch& arch) {
  if (access.pattern.kind != model::PatternKind::Enumerated) return std::nullopt;
  model::Access out = withAlignedBase(access);
  const int64_t S = arch.sectorBytes;
  const int64_t base = access.pattern.base.constant;
  std::vector<std::optional<int64_t>>& offsets = out.pattern.threadOffsets;
  for (size_t first = 0; first < offsets.size(); first += static_cast<size_t>(arch.warpSize)) {
    const size_t last = std::min(offsets.size(), first + static_cast<size_t>(arch.warpSize));
    std::optional<int64_t> low;
    for (size_t k = first; k < last; ++k)
      if (offsets[k]) low = std::min(low.value_or(*offsets[k] + base), *offsets[k] + base);
    if (!low) continue;
    const int64_t shift = ((*low % S) + S) % S;
    for (size_t k = first; k < last; ++k)
      if (offsets[k]) *offsets[k] += base - shift;
  }
  return out;
}

model::Access withUnitStrideX(const model::Access& access) {
  model::AffineLanes lanes = access.pattern.affine;
  lanes.cx = lanes.cx < 0 ? -access.bytesPerLane : access.bytesPerLane;
  return withLanes(access, lanes);
}

model::Access withSwappedXY(const model::Access& access) {
  model::AffineLanes lanes = access.pattern.affine;
  std::swap(lanes.cx, lanes.cy);
  return withLanes(access, lanes);
}

std::optional<model::Access> withPaddedSharedRow(const model::Access& access, const model::Arch& arch,
                                                 int64_t elements) {
  if (access.pattern.kind != model::PatternKind::Affine) return std::nullopt;
  const model::AffineLanes& l = access.pattern.affine;
  const int64_t row = std::max({std::llabs(l.cx), std::llabs(l.cy), std::llabs(l.cz)});
  // Only a coefficient spanning whole wavefronts is a row whose padding shifts banks;
  // smaller strides are fixed by reindexing, not by padding.
  if (row < arch.sharedWavefrontBytes() || row % access.bytesPerLane != 0) return std::nullopt;
  const int64_t padded = row + elements * access.bytesPerLane;
  auto pad = [&](int64_t c) { return c != 0 && c % row == 0 ? c / row * padded : c; };
  return withLanes(access, {pad(l.cx), pad(l.cy), pad(l.cz)});
}

model::Access withContiguousLanes(const model::Access& access, const model::Dim3& block) {
  const int64_t b = access.bytesPerLane;
  return withLanes(access, {b, b * block.x, b * block.x * block.y});
}

std::optional<model::Access> withContiguousThreads(const model::Access& access) {
  if (access.pattern.kind != model::PatternKind::Enumerated) return std::nullopt;
  model::Access out = access;
  std::vector<std::optional<int64_t>>& offsets = out.pattern.threadOffsets;
  for (size_t linear = 0; linear < offsets.size(); ++linear)
    if (offsets[linear]) offsets[linear] = static_cast<int64_t>(linear) * access.bytesPerLane;
  return out;
}

bool isIdeal(const model::GlobalFigures& f) { return f.sectorsPerRequest <= f.idealSectors + 1e-9; }

std::optional<FixedAccess> fixIfBetter(const model::Access& fixed, const model::Dim3& block,
                                       const model::GlobalFigures& from, const model::Arch& arch, std::string change) {
  // No request left (the pattern's lanes all idle) is no evidence of a better access.
  const double after = globalOf(fixed, block, arch).sectorsPerRequest;
  if (after <= 0 || after >= from.sectorsPerRequest - 1e-9) return std::nullopt;
  return FixedAccess{fixed, block, std::move(change)};
}

std::optional<FixedAccess> fixIfBetter(const model::Access& fixed, const model::Dim3& block,
                                       const model::SharedFigures& from, const model::Arch& arch, std::string change) {
  const double after = sharedOf(fixed, block, arch).wavefronts;
  if (after <= 0 || after >= from.wavefronts - 1e-9) return std::nullopt;
  return FixedAccess{fixed, block, std::move(change)};
}

}  // namespace coalesce::report::detail
