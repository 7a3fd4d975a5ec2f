#include "access_cause.h"

#include <algorithm>
#include <cstdlib>

#include "what_if.h"

namespace coalesce::report::detail {

bool isRecordField(const AccessSite& site) { return !site.record.empty(); }

bool groupWastes(const AccessGroup& group) {
  // A group whose bytes fill 7/8 of its sectors or more wastes nothing a layout change would
  // win back: a 32-byte record of seven 4-byte fields and one padding word (PCL's float8
  // particles) is as dense as its alignment allows (blind panel 41 judged its members false).
  // Each further run of sectors (a stencil's rows of taps: up, centre and down neighbours of
  // a 2D block's warp) may start off a boundary and rounds its own bytes up to a whole
  // sector, which the union's single ideal does not count: two sectors per further run.
  const double allowance = std::max(1.0, group.idealSectors / 7) + 2 * std::max(0.0, group.sectorRuns - 1);
  return group.sectorsPerRequest > group.idealSectors + allowance + 1e-9;
}

bool reusedAcrossIterations(const AccessSite& site) {
  const double over = site.iterationReuse.sectorsPerRequest;
  if (over <= 0 || !site.figures.global) return false;
  const model::GlobalFigures& g = site.figures.global->aligned;
  if (g.sectorsPerRequest <= over + 1e-9) return false;  // nothing touched again
  const double allowance = std::max(1.0, g.idealSectors / 8);
  return over <= g.idealSectors + allowance + 1e-9;
}

bool servedWithItsGroup(const AccessSite& site) { return site.group.id >= 0 && !groupWastes(site.group); }

std::vector<const AccessSite*> groupMembers(const AccessSite& site, const AnalysisResult* analysis) {
  if (site.group.id < 0 || !analysis || static_cast<size_t>(site.group.id) >= analysis->accesses.size()) return {&site};
  std::vector<const AccessSite*> out;
  // A group lies within one kernel's accesses, which are consecutive, from its first member on.
  for (size_t i = static_cast<size_t>(site.group.id); i < analysis->accesses.size(); ++i) {
    const AccessSite& a = analysis->accesses[i];
    if (a.kernel != site.kernel) break;
    if (a.group.id == site.group.id) out.push_back(&a);
  }
  return out.empty() ? std::vector<const AccessSite*>{&site} : out;
}

double coalescedSectors(const AccessSite& site, const model::Arch& arch) {
  const int64_t bytes = site.figures.activeLanesPerWarp * site.access.bytesPerLane;
  return static_cast<double>((bytes + arch.sectorBytes - 1) / arch.sectorBytes);
}

namespace {

Cause classifyGlobal(const AccessSite& site, const model::Arch& arch) {
  const model::Access& a = site.access;
  switch (a.pattern.kind) {
    case model::PatternKind::Indirect:
      // A gather inside an object so small that even scattered lanes touch no more sectors
      // than a coalesced request (model::Access::objectBytes caps the range): nothing wasted.
      if (site.figures.sectorRange && site.figures.sectorRange->second <= coalescedSectors(site, arch)) return Cause::None;
      // A gather of one record per thread whose records fill whole sectors wherever they lie
      // (32-byte records on 32-byte boundaries): scattered lanes waste nothing between them.
      if (site.group.gather && site.group.sectorsPerRequest <= site.group.idealSectors + 1e-9) return Cause::None;
      return site.indirectRowGather ? Cause::RowGather : Cause::ScatteredIndirect;
    case model::PatternKind::Unknown:
    case model::PatternKind::Uniform: return Cause::None;  // unknowable, or a broadcast
    default: break;
  }
  const auto f = globalFigures(site);
  if (!f || f->broadcast || isIdeal(*f)) return Cause::None;
  // No more sectors than the warp's active lanes would touch on consecutive elements: lanes
  // sharing a few words of distant rows (a broadcast per row), a leader lane. Nothing a
  // layout change could save (docs/findings.md, "Levels").
  if (f->sectorsPerRequest <= coalescedSectors(site, arch) + 1e-9) return Cause::None;
  // The fields of one record, the halves of a wide element, neighbouring taps: judged by
  // what the memory system serves for them together.
  if (servedWithItsGroup(site)) return Cause::None;

  // Misaligned: the same lanes, each warp's run starting on a sector boundary (and, for
  // 2D patterns, rows on cache-line pitches), would be ideal: only where runs start costs.
  // The lanes recorded are those of one iteration, the figures an average over many: where
  // that iteration is ideal already (one edge lane of a guarded window: PCL's Gaussian blur),
  // aligning its runs proves nothing of the others, and the cause stays the spread.
  if (a.pattern.kind == model::PatternKind::Enumerated) {
    const auto aligned = withWarpAlignedRuns(a, arch);
    if (aligned && !isIdeal(globalOf(a, site.block.dim, arch)) && isIdeal(globalOf(*aligned, site.block.dim, arch)))
      return Cause::Misaligned;
  } else if (std::llabs(a.pattern.affine.cx) == a.bytesPerLane &&
             isIdeal(globalOf(withPaddedPitch(a, arch), site.block.dim, arch))) {
    return Cause::Misaligned;
  }
  if (a.pattern.kind != model::PatternKind::Affine) return Cause::Strided;

  const model::AffineLanes& l = a.pattern.affine;
  const int64_t b = a.bytesPerLane;
  const model::Dim3& block = site.block.dim;
  if (block.x > 1 && block.y > 1 && std::llabs(l.cx) > b && std::llabs(l.cy) == b) return Cause::InvertedAxes;
  // A stride that is not a whole number of elements can only be a record's size.
  if (std::llabs(l.cx) > b && (isRecordField(site) || std::llabs(l.cx) % b != 0)) return Cause::AosField;
  return Cause::Strided;
}

Cause classifyShared(const AccessSite& site, const model::Arch& arch) {
  const auto f = sharedFigures(site);
  if (!f || f->conflictDegree <= 1.0 + 1e-9) return Cause::None;
  return site.access.bytesPerLane > arch.bankWidthBytes ? Cause::WideSharedConflict : Cause::SharedConflict;
}

}  // namespace

Cause classify(const AccessSite& site, const model::Arch& arch) {
  switch (site.access.space) {
    case model::Space::Global: return classifyGlobal(site, arch);
    case model::Space::Shared: return classifyShared(site, arch);
    default: return Cause::None;  // constant and local memory are not coalescing problems
  }
}

}  // namespace coalesce::report::detail
