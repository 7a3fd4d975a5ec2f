// One finding as the source view shows it: severity, rule and kernels, the message, the
// notes (assumptions, diagnosis, fix), and for an access the warp it is about drawn twice:
// as written, and as the fix would leave it (Finding::fix), each re-evaluated by the model.
#include <algorithm>

#include <fmt/format.h>

#include "coalesce/html/escape.h"
#include "coalesce/html/warp_layout.h"
#include "coalesce/model/access_model.h"
#include "format.h"
#include "html_parts.h"
#include "rules/branch_remap.h"
#include "rules/interleaved_reduction.h"
#include "what_if.h"

namespace coalesce::report::detail {

namespace {

using html::blockPathsPicture;
using html::branchPicture;
using html::costliestWarp;
using html::escape;
using html::reachPicture;
using html::warpPicture;

std::string blockText(const model::Dim3& dim, const model::Arch& arch, int64_t warp) {
  return fmt::format("warp {} of {} in a block of {}", warp, model::warpCount(dim, arch), dims(dim));
}

std::string averageText(const model::AccessFigures& f) {
  if (f.global)
    return fmt::format("block average {} sectors per request (ideal {}), eta {}",
                       number(f.global->aligned.sectorsPerRequest), number(f.global->aligned.idealSectors),
                       percent(f.global->aligned.efficiency));
  if (f.shared)
    return fmt::format("block average {} wavefronts per request (ideal {}), {}-way",
                       number(f.shared->aligned.wavefronts), number(f.shared->aligned.idealWavefronts),
                       number(f.shared->aligned.conflictDegree));
  return "";
}

// Why an access has no lanes to draw, in the words of its record.
std::string noPictureText(const AccessSite& site) {
  if (!site.executed) return "no lane runs this access: " + site.notExecuted;
  if (const auto& r = site.figures.sectorRange) {
    std::string text = fmt::format(
        "the addresses come from loaded data: {} to {} sectors per request depending on their values; no lanes to "
        "draw",
        number(r->first), number(r->second));
    // Fields of one record read through the same index (AccessGroup::gather), as --explain says.
    if (site.group.gather) text += "; " + gatheredRecordRange(site.group, ", ");
    return text;
  }
  if (const auto& r = site.figures.wavefrontRange)
    return fmt::format("the addresses come from loaded data: {} to {} wavefronts per request; no lanes to draw",
                       number(r->first), number(r->second));
  if (site.access.pattern.kind == model::PatternKind::Unknown) return "the address could not be followed statically";
  return fmt::format("{} memory: no sectors or banks to draw", model::toString(site.access.space));
}

std::string figure(const std::string& caption, const std::string& content) {
  return "<figure><figcaption>" + caption + "</figcaption>" + content + "</figure>";
}

// Why an access finding has no fix picture (Finding::fix unset), given its picture as written.
std::string noFixPictureReason(const Finding& f, const std::string& written) {
  if (written.find("<svg") == std::string::npos)
    return "the access as written has no lanes to draw, so its fix has none either";
  if (f.reuse)
    return "the fix (a __shared__ tile) leaves the lanes of each warp's load as they are: it removes the re-reads of "
           "the same bytes by the block's other warps, which the fix note counts per block, not the lanes of one warp";
  const bool claimsFix =
      std::any_of(f.notes.begin(), f.notes.end(), [](const std::string& n) { return n.rfind("fix:", 0) == 0; });
  if (!claimsFix)
    return "the rule found no change of the lanes that the model says does better (the notes say what it checked)";
  return "the fix note's figure does not come from a changed access the model re-evaluated, so there is nothing to "
         "draw";
}

std::string pictures(const HtmlContext& ctx, const Finding& f, const AccessSite& site) {
  const int64_t warp = costliestWarp(site.access, site.block.dim, ctx.arch);
  std::string from(toString(site.block.source));
  if (!site.block.detail.empty()) from += ": " + site.block.detail;
  std::string caption = "<b>As written</b>: " + blockText(site.block.dim, ctx.arch, warp) + " (" + escape(from) + ")";
  if (!site.loops.empty())
    caption += fmt::format("; the first iteration of its loop{} (the figures average every iteration the analysis "
                           "lists)",
                           site.loops.size() == 1 ? "" : "s");
  std::string written;
  if (auto p = warpPicture(site.access, site.block.dim, ctx.arch, warp)) {
    caption += "<br>this warp: " + p->summary;
    if (const std::string avg = averageText(site.figures); !avg.empty()) caption += "; " + avg;
    written = figure(caption, ctx.pictures->svg(*p));
  } else {
    written = figure(caption, "<p>" + escape(noPictureText(site)) + "</p>");
  }

  std::string fixed;
  if (f.fix) {
    const FixedAccess& fix = *f.fix;
    const int64_t fixWarp = warp < model::warpCount(fix.block, ctx.arch) ? warp : 0;
    std::string fixCaption = "<b>After the fix</b> (" + escape(fix.change) + "): " +
                             blockText(fix.block, ctx.arch, fixWarp);
    if (auto p = warpPicture(fix.access, fix.block, ctx.arch, fixWarp)) {
      fixCaption += "<br>this warp: " + p->summary;
      const std::string avg = averageText(model::analyzeAccess(fix.access, fix.block, ctx.arch));
      if (!avg.empty()) fixCaption += "; " + avg;
      fixed = figure(fixCaption, ctx.pictures->svg(*p));
    } else {
      fixed = figure(fixCaption, "<p>no lanes to draw</p>");
    }
  } else {
    fixed = figure("<b>After the fix</b>", "<p>No picture: " + noFixPictureReason(f, written) + ".</p>");
  }
  return fmt::format("<details class=\"pic\"{}><summary>Warp picture: as written and after the fix</summary>"
                     "<div class=\"pics\">{}{}</div></details>",
                     ctx.openPictures ? " open" : "", written, fixed);
}

std::string ordinal(int n) {
  const int last = n % 10, lastTwo = n % 100;
  const char* suffix = (lastTwo >= 11 && lastTwo <= 13) ? "th"
                       : last == 1                       ? "st"
                       : last == 2                       ? "nd"
                       : last == 3                       ? "rd"
                                                         : "th";
  return fmt::format("{}{}", n, suffix);
}

// The split warp as the interleaved reduction's fix (sequential addressing, `if (tid < s)`,
// rules/divergent_branch.cpp) would leave it on the pass where as many threads of the block
// take the branch: the first N threads of the block, N = the block's threads times the share
// of the warp's reaching lanes that take it (the step `tid % (2 * s) == 0` keeps the same share
// of every warp it splits). nullopt when the split has no true side to count.
std::optional<LaneSplit> sequentialAddressingSplit(const LaneSplit& split, const model::Dim3& block,
                                                   const model::Arch& arch, int64_t& active) {
  const auto trueValue = std::find(split.values.begin(), split.values.end(), "1");
  if (trueValue == split.values.end()) return std::nullopt;
  const int taken = static_cast<int>(trueValue - split.values.begin());
  const auto reaching = std::count_if(split.lanes.begin(), split.lanes.end(), [](int v) { return v >= 0; });
  const auto taking = std::count(split.lanes.begin(), split.lanes.end(), taken);
  if (reaching == 0) return std::nullopt;
  active = (block.volume() * taking + reaching / 2) / reaching;
  LaneSplit fixed = split;
  bool anyTrue = false, anyFalse = false;
  for (size_t k = 0; k < split.lanes.size(); ++k) {
    if (split.lanes[k] < 0) continue;
    const bool on = split.warp * arch.warpSize + static_cast<int64_t>(k) < active;
    fixed.lanes[k] = on;
    (on ? anyTrue : anyFalse) = true;
  }
  // Only the values some lane takes, so the picture has a row per path the warp runs.
  fixed.values.clear();
  if (anyFalse) fixed.values.push_back("0");
  if (anyTrue) fixed.values.push_back("1");
  if (!anyFalse)
    for (int& v : fixed.lanes)
      if (v > 0) v = 0;
  return fixed;
}

// The interleaved reduction's fix (sequential addressing), drawn on the split warp.
std::string sequentialAddressingFigure(const HtmlContext& ctx, const BranchSite& site) {
  int64_t active = 0;
  const std::optional<LaneSplit> fixed = sequentialAddressingSplit(site.split, site.block.dim, ctx.arch, active);
  const auto p = fixed ? branchPicture(*fixed, site.kind) : std::nullopt;
  if (!p)
    return figure("<b>After the fix</b>",
                  "<p>No picture: the split warp has no lane on the true side to count the threads that take the "
                  "branch.</p>");
  std::string caption = fmt::format(
      "<b>After the fix</b> (sequential addressing, <code>if (tid &lt; s)</code>): warp {}, on the pass where {} of "
      "the block's {} threads take the branch, now the first {}",
      site.split.warp, active, site.block.dim.volume(), active);
  caption += "<br>" + escape(p->summary) + "; at most one warp of the block splits per pass";
  return figure(caption, ctx.pictures->svg(*p));
}

// The remap fix (rules/branch_remap.h): the block of the pass the split was seen on, as
// written and with the threads that take each path made contiguous; the counts over every
// pass are the records' (the fix note quotes them).
std::string remapFigures(const HtmlContext& ctx, const BranchSite& site) {
  const BranchRemap remap = branchRemap(site);
  if (!remap.computed) return figure("<b>After the fix</b>", "<p>No picture: " + escape(remap.whyNot) + ".</p>");
  const LaneSplit& split = site.split;
  const auto written = blockPathsPicture(split.byWarp, split.blockValues, site.kind);
  const std::vector<std::string> remapped = remappedBlock(split, site.kind);
  const auto fixed = blockPathsPicture(remapped, split.blockValues, site.kind);
  if (!written || !fixed)
    return figure("<b>After the fix</b>",
                  fmt::format("<p>No picture: the block of the pass shown is not recorded (it takes more than {} "
                              "values); over every pass, {} of {} warp requests would split instead of {}.</p>",
                              LaneSplit::kMaxBlockPaths, remap.after, site.warpRequests, remap.before));
  const std::string pass =
      site.loops.empty() ? "" : fmt::format(", the {} iteration listed", ordinal(split.iteration + 1));
  const int64_t splitAsWritten = splitWarps(split.byWarp), splitRemapped = splitWarps(remapped);
  const std::string writtenCaption =
      fmt::format("<b>The block as written</b> (block ({}, {}, {}){}): {} warp{} split on this pass<br>{}",
                  split.blockX, split.blockY, split.blockZ, pass, splitAsWritten, splitAsWritten == 1 ? "" : "s",
                  escape(written->summary));
  const char* how = site.kind == BranchKind::Loop     ? "work sorted by trip count"
                    : site.kind == BranchKind::Switch ? "threads grouped by case"
                                                      : "the threads that take it made the first ones";
  const std::string fixCaption = fmt::format(
      "<b>After the fix</b> (the work remapped, {}): the same threads reach it; {} warp{} split on this pass; over "
      "every pass the analysis lists, {} of {} warp requests split instead of {}<br>{}",
      how, splitRemapped, splitRemapped == 1 ? "" : "s", remap.after, site.warpRequests, remap.before,
      escape(fixed->summary));
  return figure(writtenCaption, ctx.pictures->svg(*written)) + figure(fixCaption, ctx.pictures->svg(*fixed));
}

std::string branchFixFigure(const HtmlContext& ctx, const BranchSite& site) {
  const int64_t warps = std::max<int64_t>(1, model::warpCount(site.block.dim, ctx.arch));
  if (interleavedReductionLoop(site, ctx.analysis, warps)) return sequentialAddressingFigure(ctx, site);
  return remapFigures(ctx, site);
}

// A branch finding: the warp the analysis saw split, one row per path it runs.
std::string branchPictures(const HtmlContext& ctx, const BranchSite& site) {
  const LaneSplit& split = site.split;
  const auto p = branchPicture(split, site.kind);
  if (!p) return "";
  std::string from(toString(site.block.source));
  if (!site.block.detail.empty()) from += ": " + site.block.detail;
  std::string caption = fmt::format("<b>The split</b>: {} ({}), in block ({}, {}, {})",
                                    blockText(site.block.dim, ctx.arch, split.warp), escape(from), split.blockX,
                                    split.blockY, split.blockZ);
  if (!site.loops.empty())
    caption += fmt::format("; the {} iteration the analysis lists for its loop{}", ordinal(split.iteration + 1),
                           site.loops.size() == 1 ? "" : "s");
  caption += "<br>" + escape(p->summary) +
             fmt::format("; in the block, {} of {} warp requests split", site.divergentRequests, site.warpRequests);
  return fmt::format("<details class=\"pic\"{}><summary>Warp picture: the lanes the condition splits</summary>"
                     "<div class=\"pics\">{}{}</div></details>",
                     ctx.openPictures ? " open" : "", figure(caption, ctx.pictures->svg(*p)),
                     branchFixFigure(ctx, site));
}

// A barrier finding: the threads of the block that reach it and those that do not, as
// written and as the fix note leaves them (the barrier where every thread passes).
std::string barrierPictures(const HtmlContext& ctx, const BarrierSite& site) {
  const auto p = reachPicture(site.reachByWarp);
  if (!p)
    return site.reach == BarrierSite::Reach::Unknown
               ? "<p class=\"muted\">No warp picture: the guard depends on values not known statically, so which "
                 "threads reach the barrier is not known.</p>"
               : "";
  std::string from(toString(site.block.source));
  if (!site.block.detail.empty()) from += ": " + site.block.detail;
  std::string caption = fmt::format("<b>As written</b>: the {} warps of a block of {} ({}), at the guard <code>{}</code>",
                                    site.reachByWarp.size(), dims(site.block.dim), escape(from),
                                    escape(site.condition));
  if (!site.loops.empty())
    caption += fmt::format("; the {} iteration the analysis lists for its loop{}", ordinal(site.reachIteration + 1),
                           site.loops.size() == 1 ? "" : "s");
  caption += "<br>" + escape(p->summary);
  std::vector<std::string> everyone = site.reachByWarp;
  for (std::string& warp : everyone)
    for (char& lane : warp)
      if (lane != '-') lane = '1';
  const auto fixed = reachPicture(everyone);
  const std::string fixCaption = "<b>After the fix</b> (the barrier moved out of the branch, where every thread of "
                                 "the block passes)<br>" + escape(fixed->summary);
  return fmt::format("<details class=\"pic\"{}><summary>Warp picture: the threads that reach the barrier</summary>"
                     "<div class=\"pics\">{}{}</div></details>",
                     ctx.openPictures ? " open" : "", figure(caption, ctx.pictures->svg(*p)),
                     figure(fixCaption, ctx.pictures->svg(*fixed)));
}

// Why a finding that is not about an access, or whose record has no lanes, has no picture.
std::string noPictureReason(const Finding& f) {
  if (f.branch) return "this finding is about a branch condition whose record holds no split warp to draw";
  if (f.barrier) return "this finding is about a barrier whose record holds no threads to draw";
  if (f.occupancy)
    return "this finding is about the kernel's occupancy (how many of its warps an SM holds), which no warp's "
           "lanes show; the fix note gives the block shape or shared memory that raises it";
  return "this finding is about the kernel's pointer parameters; its fix (__restrict__) changes no lane's address, "
         "so there is no warp to draw before or after it";
}

}  // namespace

std::string findingBox(const HtmlContext& ctx, size_t index) {
  const Finding& f = ctx.report.findings[index];
  const std::string severity(toString(f.severity));
  std::string out = fmt::format("<div class=\"f {0}\"><p><span class=\"sev {0}\">{0}</span> <code>{1}</code>", severity,
                                escape(f.rule));
  if (!f.kernel.empty()) out += " in kernel <code>" + escape(f.kernel) + "</code>";
  if (!f.instantiations.empty()) out += fmt::format(" and {} more", f.instantiations.size() - 1);
  if (const std::string cost = costText(ctx.costs[index]); !cost.empty())
    out += ctx.costs[index].perLaunch ? fmt::format(" &middot; cost {} wasted per launch", cost)
                                      : fmt::format(" &middot; cost {} {} beyond the ideal", cost, ctx.costs[index].unit);
  out += " &middot; <a href=\"#index\">index</a></p>\n<p>" + escape(f.message) + "</p>\n<ul>";
  for (const std::string& note : f.notes) {
    const char* cls = note.rfind("fix:", 0) == 0 ? " class=\"fix\"" : "";
    out += fmt::format("<li{}>{}</li>", cls, escape(note));
  }
  out += "</ul>\n";
  const auto& branches = ctx.analysis.branches;
  std::string drawn;
  if (const AccessSite* site = accessOf(ctx, f))
    drawn = pictures(ctx, f, *site);
  else if (f.branch && *f.branch >= 0 && static_cast<size_t>(*f.branch) < branches.size())
    drawn = branchPictures(ctx, branches[static_cast<size_t>(*f.branch)]);
  else if (const auto& barriers = ctx.analysis.barriers;
           f.barrier && *f.barrier >= 0 && static_cast<size_t>(*f.barrier) < barriers.size())
    drawn = barrierPictures(ctx, barriers[static_cast<size_t>(*f.barrier)]);
  if (drawn.empty())
    drawn = "<p class=\"muted\">No warp picture: " + noPictureReason(f) + ".</p>";
  out += drawn;
  return out + "</div>";
}

}  // namespace coalesce::report::detail
