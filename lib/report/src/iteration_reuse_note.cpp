#include "iteration_reuse_note.h"
#include "finding_site.h"

#include <algorithm>
#include <cstdlib>
#include <optional>

#include <fmt/format.h>

#include "access_cause.h"
#include "format.h"

namespace coalesce::report::detail {

namespace {

// The widest row a thread may walk by itself and cost nothing, measured on the H200
// (bench/cache_reuse/h200/short_rows.csv, the same 256 MB moved each time): loads of rows of 8,
// 16 and 32 bytes per thread took 0.92x to 1.01x the time of the same bytes read coalesced,
// 64 bytes 1.8x to 1.9x; stores of 8 and 16 bytes 0.93x to 0.97x, 32 bytes 2.9x to 5.2x. A
// thread then uses its sector whole before L1 (L2) lets it go: register blocking
// (`a[depth * tid + i]`, i < depth) of sorts, merges and scans.
constexpr int64_t kFreeLoadRowBytes = 32;
constexpr int64_t kFreeStoreRowBytes = 16;

// Bytes between consecutive lanes of a warp, where the lanes run along x (a block at least a
// warp wide) in an affine pattern; nullopt otherwise.
std::optional<int64_t> laneStrideBytes(const AccessSite& site) {
  if (site.access.pattern.kind != model::PatternKind::Affine || site.block.dim.x < 32) return std::nullopt;
  return std::llabs(site.access.pattern.affine.cx);
}

}  // namespace

void addIterationReuseNotes(std::vector<Finding>& findings, const AnalysisResult& analysis) {
  for (Finding& f : findings) {
    const AccessSite* found = accessSiteOf(f, analysis);
    if (!found) continue;
    const AccessSite& site = *found;
    if (!reusedAcrossIterations(site)) continue;
    const bool load = site.access.kind == model::AccessKind::Load;
    const auto stride = laneStrideBytes(site);
    if (stride && *stride > 0 && *stride <= (load ? kFreeLoadRowBytes : kFreeStoreRowBytes)) {
      f.severityCap = std::min(f.severityCap.value_or(Severity::Note), Severity::Note);
      f.severityCapReason = fmt::format(
          "a note, not a warning: each thread walks its own {} bytes (lanes {} bytes apart) and uses the rest of "
          "each sector in its next iterations; on the H200 a thread walking rows of up to {} bytes took 0.92x to "
          "1.01x the time of the same bytes {} coalesced (bench/cache_reuse/h200/short_rows.csv)",
          *stride, *stride, load ? kFreeLoadRowBytes : kFreeStoreRowBytes, load ? "read" : "written");
      continue;
    }
    f.notes.push_back(fmt::format(
        "each thread uses the rest of these sectors in its next iterations (counted once over windows of {} "
        "iterations, {} per request where {} the bytes), so {} serves most of them and DRAM traffic "
        "stays near the ideal; every request still moves {} through {}: on the H200 a 256-byte row walked "
        "per thread took {} the time of the same rows {} coalesced (bench/cache_reuse/h200)",
        kIterationWindow, units(site.iterationReuse.sectorsPerRequest, "sector"),
        number(site.figures.global->aligned.idealSectors) + (number(site.figures.global->aligned.idealSectors) == "1" ? " carries" : " carry"),
        load ? "L1" : "L2", units(site.figures.global->aligned.sectorsPerRequest, "sector"), load ? "L1" : "L2",
        load ? "3.9x" : "15x", load ? "read" : "written"));
  }
}

}  // namespace coalesce::report::detail
