#include "iteration_reuse_note.h"
#include "finding_site.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "access_cause.h"
#include "format.h"

namespace coalesce::report::detail {

namespace {

// The widest row a thread may walk by itself and cost nothing, measured on the H200
// (bench/cache_reuse/h200/short_rows.csv, the same 256 MB moved each time): loads of rows of 8,
// 16 and 32 bytes per thread took 0.92x to 1.01x the time of the same bytes read coalesced,
// 64 bytes of floats 1.8x to 1.9x; stores of 8 and 16 bytes 0.93x to 0.97x, 32 bytes 2.9x to
// 5.2x. Rows in between (session 15, middle_rows.csv): 40 and 48 bytes of floats read 0.93x to
// 1.00x, 5 doubles (40 bytes, NPB's grid point) 0.96x to 0.99x; 5 doubles written 1.05x to 2.8x.
// A thread then uses its sector whole before L1 (L2) lets it go: register blocking
// (`a[depth * tid + i]`, i < depth) of sorts, merges and scans, a record of a few fields.
constexpr int64_t kFreeLoadRowBytes = 48;
constexpr int64_t kFreeStoreRowBytes = 16;
// The filled-gaps rule below keeps the 32-byte rows it was written against: its taps were
// measured at 8 bytes apart only.
constexpr int64_t kFilledGapsRowBytes = 32;
// Stride-2 lanes over taps 0..k-1 (k = 2 to 8) against the same words per warp read coalesced in
// the same requests, at 16 to 64 warps per SM (bench/cache_reuse/h200/filled_gaps.csv): 0.99x to
// 1.02x the time, the same L2 sectors and DRAM bytes, though L1 moved 1.9x the sectors; NN's 5x5
// window through a __constant__ tap table 0.82x to 0.98x. Gaps never filled: 1.06x to 1.21x,
// twice the DRAM bytes. Loads only: no store was measured this way.
constexpr const char* kFilledGapsMeasured = "0.99x to 1.02x";

// Bytes between consecutive lanes of a warp, where the lanes run along x (a block at least a
// warp wide) in an affine pattern; nullopt otherwise.
std::optional<int64_t> laneStrideBytes(const AccessSite& site) {
  if (site.access.pattern.kind != model::PatternKind::Affine || site.block.dim.x < 32) return std::nullopt;
  return std::llabs(site.access.pattern.affine.cx);
}

// Bytes between neighbouring lanes of one run, whatever the block's width: along x when a row
// of the block holds two lanes or more, else along y (a block one thread wide). The warp of a
// narrow block (ISPASS NN's 5x5) is several such runs, each starting a row of the data.
std::optional<int64_t> runStrideBytes(const AccessSite& site) {
  if (site.access.pattern.kind != model::PatternKind::Affine) return std::nullopt;
  const model::AffineLanes& l = site.access.pattern.affine;
  if (site.block.dim.x >= 2) return std::llabs(l.cx);
  if (site.block.dim.y >= 2) return std::llabs(l.cy);
  return std::nullopt;
}

// The next iterations of the loop read the words each request skips: over the window the
// warp reads at least half of what one request leaves unread of its sectors (one request's
// share is its efficiency; a loop that reads the same words again, or skips the same words
// each time, stays there). From the lanes' addresses over the window (IterationReuse).
bool gapsFilledByNextIterations(const AccessSite& site) {
  const double request = site.figures.global->aligned.efficiency, window = site.iterationReuse.bytesReadShare;
  return window > request && window >= request + (1 - request) / 2 - 1e-9;
}

// A finding that the next iterations' reads make free (the two capped cases below): its
// per-request traffic, fix and cost are what one request moves through L1 (L2 for stores), not
// what reaches DRAM or the time it takes, and its notes say so, so that "8x what the warp uses"
// and "63.6 % of the kernel's memory time" do not stand beside "L1 serves them" (blind panel 40
// judged cudahandbook's register-blocked `B[k*N + (col0+j)]` false on those lines).
void qualifyPerRequestNotes(Finding& f, bool load, const char* measured) {
  const std::string cache = load ? "L1" : "L2";
  for (std::string& note : f.notes) {
    if (note.starts_with("traffic: "))
      note = "traffic through " + cache + ": " + note.substr(9) + "; its next iterations use the rest of these sectors, so " +
             (load ? "L2 and DRAM move" : "DRAM moves") + " near the ideal";
    else if (note.starts_with("fix: ") && note.ends_with("x less traffic)"))
      note = note.substr(0, note.size() - 15) + "x fewer sectors through " + cache + ")";
    else if (note.starts_with("cost: "))
      note += fmt::format("; counted per request at {}, an upper bound: on the H200 such accesses took {} the time of "
                          "coalesced ones",
                          cache, measured);
  }
}

}  // namespace

void addIterationReuseNotes(std::vector<Finding>& findings, const AnalysisResult& analysis, const model::Arch& arch) {
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
          "each sector in its next iterations; on the H200 a thread walking rows of up to {} bytes took {} the "
          "time of the same bytes {} coalesced (bench/cache_reuse/h200/{})",
          *stride, *stride, load ? kFreeLoadRowBytes : kFreeStoreRowBytes, load ? "0.91x to 1.02x" : "0.93x to 0.97x",
          load ? "read" : "written", load ? "short_rows.csv, middle_rows.csv" : "short_rows.csv");
      qualifyPerRequestNotes(f, load, load ? "0.91x to 1.02x" : "0.93x to 0.97x");
      continue;
    }
    // Loads whose lanes in each run are as close as those of a short row, with no more lines
    // per request than a warp of such rows touches (32 lanes x 32 bytes: 8 lines of 128 bytes,
    // one more when a run starts off a line), and whose gaps the next iterations fill: stride-2
    // taps through a tap table (ISPASS NN) or `k` offsets (filled_gaps.csv, above).
    const int64_t freeBytes = kFilledGapsRowBytes;
    const double freeLines = static_cast<double>(arch.warpSize * freeBytes / arch.cacheLineBytes) + 1;
    if (const auto run = runStrideBytes(site); load && run && *run > 0 && *run <= freeBytes &&
                                               site.iterationReuse.linesPerRequest <= freeLines + 1e-9 &&
                                               gapsFilledByNextIterations(site)) {
      f.severityCap = std::min(f.severityCap.value_or(Severity::Note), Severity::Note);
      f.severityCapReason = fmt::format(
          "a note, not a warning: the next iterations of its loop read the words each request skips (counted in "
          "windows of up to {} iterations, the warp reads {:.0f}% of the bytes of the sectors it touches, where one "
          "request's efficiency is {:.0f}%), so L1 serves them and L2 and DRAM traffic stays near the ideal; its "
          "lanes are {} bytes apart, as close as a thread's own row of {} bytes, and on the H200 lanes 8 bytes "
          "apart over 2 to 8 taps took {} the time of the same words read coalesced "
          "(bench/cache_reuse/h200/filled_gaps.csv)",
          kIterationWindow, 100 * site.iterationReuse.bytesReadShare, 100 * site.figures.global->aligned.efficiency,
          *run, freeBytes, kFilledGapsMeasured);
      qualifyPerRequestNotes(f, load, kFilledGapsMeasured);
      continue;
    }
    if (site.iterationReuse.bytesReadShare > 0 && !gapsFilledByNextIterations(site)) {
      // The window is near the ideal only because the next iterations touch the same sectors
      // again (the same words, or the same gaps skipped: stride-2 lanes over even taps).
      f.notes.push_back(fmt::format(
          "the next iterations touch these sectors again (counted once over windows of up to {} iterations of the "
          "innermost loop, {} per request where {} the bytes), which {} serves, but they skip the same words: over "
          "the loop the warp {} only {:.0f}% of the bytes of the sectors it touches",
          kIterationWindow, units(site.iterationReuse.sectorsPerRequest, "sector"),
          number(site.figures.global->aligned.idealSectors) + (number(site.figures.global->aligned.idealSectors) == "1" ? " carries" : " carry"),
          load ? "L1" : "L2", load ? "reads" : "writes", 100 * site.iterationReuse.bytesReadShare));
      continue;
    }
    f.notes.push_back(fmt::format(
        "each thread uses the rest of these sectors in its next iterations (counted once over windows of up to {} "
        "iterations of the innermost loop, {} per request where {} the bytes), so {} serves most of them and DRAM "
        "traffic stays near the ideal; every request still moves {} through {}: on the H200 a 256-byte row walked "
        "per thread took {} the time of the same rows {} coalesced (bench/cache_reuse/h200)",
        kIterationWindow, units(site.iterationReuse.sectorsPerRequest, "sector"),
        number(site.figures.global->aligned.idealSectors) + (number(site.figures.global->aligned.idealSectors) == "1" ? " carries" : " carry"),
        load ? "L1" : "L2", units(site.figures.global->aligned.sectorsPerRequest, "sector"), load ? "L1" : "L2",
        load ? "3.9x" : "15x", load ? "read" : "written"));
  }
}

}  // namespace coalesce::report::detail
