// One finding as the source view shows it: severity, rule and kernels, the message, the
// notes (assumptions, diagnosis, fix), and for an access the warp it is about drawn twice:
// as written, and as the fix would leave it (Finding::fix), each re-evaluated by the model.
#include <fmt/format.h>

#include "coalesce/html/escape.h"
#include "coalesce/model/access_model.h"
#include "format.h"
#include "html_parts.h"
#include "html_warp_svg.h"
#include "warp_layout.h"
#include "what_if.h"

namespace coalesce::report::detail {

namespace {

using html::escape;

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
  if (const auto& r = site.figures.sectorRange)
    return fmt::format("the addresses come from loaded data: {} to {} sectors per request depending on their values; "
                       "no lanes to draw",
                       number(r->first), number(r->second));
  if (const auto& r = site.figures.wavefrontRange)
    return fmt::format("the addresses come from loaded data: {} to {} wavefronts per request; no lanes to draw",
                       number(r->first), number(r->second));
  if (site.access.pattern.kind == model::PatternKind::Unknown) return "the address could not be followed statically";
  return fmt::format("{} memory: no sectors or banks to draw", model::toString(site.access.space));
}

std::string figure(const std::string& caption, const std::string& content) {
  return "<figure><figcaption>" + caption + "</figcaption>" + content + "</figure>";
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
    fixed = figure("<b>After the fix</b>",
                   "<p>No picture: the rule checked no change of the lanes that the model says does better (see the "
                   "fix note).</p>");
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
                     figure("<b>After the fix</b>",
                            "<p>No picture: the fix changes the condition, not an access (see the fix note).</p>"));
}

std::string recordPhrase(const Finding& f) {
  if (f.branch) return "a branch condition: its figure is the share of warp requests whose active lanes disagree";
  if (f.barrier) return "a barrier and the guards around it";
  return "the kernel's pointer parameters";
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
  if (drawn.empty())
    drawn = "<p class=\"muted\">No warp picture: this finding is about " + std::string(recordPhrase(f)) + ".</p>";
  out += drawn;
  return out + "</div>";
}

}  // namespace coalesce::report::detail
