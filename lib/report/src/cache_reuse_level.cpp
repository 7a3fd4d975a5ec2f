#include "cache_reuse_level.h"

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "access_cause.h"
#include "format.h"

namespace coalesce::report::detail {

namespace {

// What the SM's warps must keep cached for their next iterations, against what the cache holds.
struct CacheFit {
  bool fits = false;
  std::string cache;      // "L1" or "L2"
  int64_t warps = 0;      // warps resident on one SM
  double linesPerWarp = 0;
  double workingSetBytes = 0;
  double capacityBytes = 0;
};

const KernelRecord* kernelOf(const AccessSite& site, const AnalysisResult& analysis) {
  for (const KernelRecord& k : analysis.kernels)
    if (k.status == Status::Analysed && k.name == site.kernel) return &k;
  return nullptr;
}

bool sameInnermostLoop(const AccessSite& a, const AccessSite& b) {
  return !a.loops.empty() && !b.loops.empty() && a.loops.back() == b.loops.back();
}

CacheFit cacheFit(const AccessSite& site, const AnalysisResult& analysis, const model::Arch& arch) {
  CacheFit fit;
  const bool load = site.access.kind == model::AccessKind::Load;
  // Warps an SM holds: the occupancy model's, or the most an SM can hold when it is unknown.
  const KernelRecord* kernel = kernelOf(site, analysis);
  const KernelOccupancy* occ = kernel ? &kernel->occupancy : nullptr;
  fit.warps = occ && occ->activeWarps > 0 ? occ->activeWarps : arch.maxWarpsPerSm;
  // Every global access of the same kind in the same innermost loop of this kernel competes for
  // the same lines (accesses of one kernel are consecutive in the records).
  for (const AccessSite& other : analysis.accesses)
    if (other.kernel == site.kernel && other.access.space == model::Space::Global &&
        other.access.kind == site.access.kind && sameInnermostLoop(site, other))
      fit.linesPerWarp += other.iterationReuse.linesPerRequest;
  fit.workingSetBytes = static_cast<double>(fit.warps) * fit.linesPerWarp * arch.cacheLineBytes;
  if (load) {
    // L1 stores loads (stores write through to L2); it gets what the blocks' shared memory leaves.
    fit.cache = "L1";
    double shared = 0;
    if (occ && occ->activeBlocks > 0)
      shared = static_cast<double>(occ->activeBlocks) *
               static_cast<double>(occ->staticSharedBytes + std::max<int64_t>(occ->dynamicSharedBytes, 0) +
                                   arch.reservedSharedBytesPerBlock);
    fit.capacityBytes = std::max(0.0, arch.l1SharedBytesPerSm - shared);
  } else {
    fit.cache = "L2";
    fit.capacityBytes = arch.l2BytesPerSm;
  }
  fit.fits = fit.workingSetBytes <= fit.capacityBytes;
  return fit;
}

std::string describe(const CacheFit& fit) {
  return fmt::format("{} resident warps per SM x {} lines of {} each = {} against the {} of {} it has", fit.warps,
                     number(fit.linesPerWarp), fit.cache == "L1" ? "the loop's loads" : "the loop's stores",
                     kilobytes(static_cast<int64_t>(fit.workingSetBytes)),
                     kilobytes(static_cast<int64_t>(fit.capacityBytes)),
                     fit.cache == "L1" ? "L1 beside the shared memory" : "the SM's share of L2");
}

}  // namespace

void capServedAcrossIterations(std::vector<Finding>& findings, const AnalysisResult& analysis,
                               const model::Arch& arch) {
  for (Finding& f : findings) {
    if (!f.access || *f.access < 0 || static_cast<size_t>(*f.access) >= analysis.accesses.size()) continue;
    const AccessSite& site = analysis.accesses[static_cast<size_t>(*f.access)];
    if (!reusedAcrossIterations(site)) continue;
    const CacheFit fit = cacheFit(site, analysis, arch);
    const std::string reuse = fmt::format(
        "counted once over each warp's next iterations (up to {} at a time), its sectors come to {} per request "
        "where {} carry the bytes: each thread uses the rest of a sector in its next iterations",
        kIterationWindow, number(site.iterationReuse.sectorsPerRequest),
        number(site.figures.global->aligned.idealSectors));
    if (!fit.fits) {
      f.notes.push_back(fmt::format("{}, but the lines do not stay cached that long: {}", reuse, describe(fit)));
      continue;
    }
    f.severityCap = std::min(f.severityCap.value_or(Severity::Note), Severity::Note);
    f.severityCapReason = fmt::format("a note, not a warning: {}, and {} serves them ({})", reuse,
                                      fit.cache, describe(fit));
  }
}

}  // namespace coalesce::report::detail
