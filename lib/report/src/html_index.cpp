// The top of the HTML page: the run's summary, the findings index (sortable by cost, rule
// and file; costliest first without JavaScript) and the files with their kernels.
#include <algorithm>
#include <map>
#include <numeric>

#include <fmt/format.h>

#include "coalesce/html/escape.h"
#include "coalesce/html/page.h"
#include "coalesce/report/summary.h"
#include "format.h"
#include "html_parts.h"

namespace coalesce::report::detail {

namespace {

using html::escape;

std::string row(const std::string& term, const std::string& value) {
  return fmt::format("<dt>{}</dt><dd>{}</dd>", term, value);
}

// Sort value of a location: path, then line as a fixed-width number.
std::string locationKey(const SourceLocation& loc) { return escape(fmt::format("{}\t{:09}", loc.file, loc.line)); }

std::string locationText(const SourceLocation& loc) {
  return escape(loc.line ? fmt::format("{}:{}", loc.file, loc.line) : loc.file);
}

// Costliest first; findings without a figure after those with one; then the report's order.
std::vector<size_t> byCost(const HtmlContext& ctx) {
  std::vector<size_t> order(ctx.report.findings.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    // Ranked findings (a cost per run, filter.cpp's rankByCost) by their rank first.
    const int ra = ctx.report.findings[a].rank, rb = ctx.report.findings[b].rank;
    if ((ra > 0) != (rb > 0)) return ra > 0;
    if (ra > 0) return ra < rb;
    const auto& ca = ctx.costs[a].excessPerRequest;
    const auto& cb = ctx.costs[b].excessPerRequest;
    if (ca.has_value() != cb.has_value()) return ca.has_value();
    return ca && *ca > *cb;
  });
  return order;
}

}  // namespace

std::string summarySection(const HtmlContext& ctx) {
  const Summary s = summarize(ctx.report);
  size_t failedKernels = 0;
  for (const KernelRecord& k : ctx.analysis.kernels)
    if (k.status == Status::Failed) ++failedKernels;
  std::string out = "<section id=\"summary\"><h2>Summary</h2>\n<div class=\"cols\"><dl class=\"sum\">";
  out += row("Files", fmt::format("{} ({} analysed, {} failed)", s.files, s.files - s.failedFiles, s.failedFiles));
  out += row("Kernels", fmt::format("{} ({} analysed, {} failed)", s.kernels, s.kernels - failedKernels, failedKernels));
  out += row("On a guessed block shape",
             fmt::format("{} kernel{}{}", s.kernelsOnAssumedBlock, s.kernelsOnAssumedBlock == 1 ? "" : "s",
                         s.kernelsOnAssumedBlock
                             ? fmt::format(" ({} the same under every other shape tried; the others' figures may rest "
                                           "on the guess: a launch in the file, __launch_bounds__, a block= comment "
                                           "or --block-dim fixes it)",
                                           s.kernelsOnAssumedBlockShapeInvariant)
                             : std::string()));
  if (s.kernelsOnImpliedBlock)
    out += row("On a block shape the kernel implies",
               fmt::format("{} kernel{} (no launch found; shared tiles indexed by threadIdx, blockDim comparisons or "
                           "block-stride loops give the shape: docs/block-shapes.md)",
                           s.kernelsOnImpliedBlock, s.kernelsOnImpliedBlock == 1 ? "" : "s"));
  if (s.instantiationsNotAnalysed)
    out += row("Instantiations not analysed",
               fmt::format("{} (of {} kernel template{} instantiated more often than --max-instantiations; "
                           "docs/analysis-speed.md)",
                           s.instantiationsNotAnalysed, s.templatesSampled, s.templatesSampled == 1 ? "" : "s"));
  out += row("Accesses", std::to_string(s.accesses));
  out += row("Findings", std::to_string(s.findings));
  out += row("Not shown", fmt::format("{} suppressed (NOLINT), {} baselined, {} below threshold, {} excluded, "
                                      "{} of disabled rules",
                                      s.stats.suppressed, s.stats.baselined, s.stats.belowThreshold, s.stats.excluded,
                                      s.stats.disabled));
  out += row("Architecture", escape(ctx.report.arch));
  out += row("Time", fmt::format("{:.2f} s", s.seconds));
  out += "</dl>\n";
  if (!s.findingsByRule.empty()) {
    out += "<table class=\"t sortable\" id=\"rules\" style=\"width:auto\"><thead><tr>" +
           html::sortableHeader("Rule", false) + html::sortableHeader("Findings", true) + "</tr></thead><tbody>";
    for (const auto& [rule, n] : s.findingsByRule)
      out += fmt::format("<tr><td>{}</td><td class=\"num\">{}</td></tr>", escape(rule), n);
    out += "</tbody></table>\n";
  }
  out += "</div>\n";
  for (const FileRecord& f : ctx.analysis.files)
    if (f.status == Status::Failed)
      out += fmt::format("<p><span class=\"mark\">not analysed:</span> <code>{}</code>: {}</p>\n", escape(f.path),
                         escape(f.error));
  for (const KernelRecord& k : ctx.analysis.kernels)
    if (k.status == Status::Failed)
      out += fmt::format("<p><span class=\"mark\">kernel not analysed:</span> <code>{}</code> in {}: {}</p>\n",
                         escape(k.name), locationText(k.loc), escape(k.reason));
  return out + "</section>\n";
}

std::string findingsIndex(const HtmlContext& ctx) {
  std::string out = "<section id=\"index\"><h2>Findings</h2>\n";
  if (ctx.report.findings.empty()) return out + "<p>No finding.</p></section>\n";
  out += "<p>Cost: sectors (global) or wavefronts (shared) per warp request beyond the ideal; a click on a header "
         "sorts by that column.</p>\n<table class=\"t sortable\"><thead><tr>";
  out += "<th data-type=\"num\" aria-sort=\"descending\"><button type=\"button\">Cost</button></th>";
  out += html::sortableHeader("Rule", false) + html::sortableHeader("File", false) +
         html::sortableHeader("Kernel", false) + "<th>Message</th></tr></thead><tbody>\n";
  for (size_t i : byCost(ctx)) {
    const Finding& f = ctx.report.findings[i];
    const FindingCost& c = ctx.costs[i];
    const std::string cost = costText(c);
    const std::string kernel = f.instantiations.empty()
                                   ? f.kernel
                                   : fmt::format("{} (+{} more)", f.kernel, f.instantiations.size() - 1);
    const AccessSite* site = accessOf(ctx, f);
    const std::string_view colour = site ? wasteClass(*site) : "";
    const std::string shown = cost.empty()      ? "&ndash;"
                              : colour.empty() ? cost
                                               : fmt::format("<span class=\"b {}\">{}</span>", colour, cost);
    out += fmt::format(
        "<tr><td class=\"num\" data-v=\"{}\">{}</td>"
        "<td class=\"nw\" data-v=\"{}\"><span class=\"sev {}\">{}</span><br>{}</td>"
        "<td data-v=\"{}\"><a href=\"#{}\">{}</a></td><td>{}</td><td>{}</td></tr>\n",
        cost.empty() ? "-1" : cost, shown, escape(f.rule), toString(f.severity), toString(f.severity),
        escape(f.rule), locationKey(f.loc), findingAnchor(i), locationText(f.loc), escape(kernel), escape(f.message));
  }
  return out + "</tbody></table></section>\n";
}

std::string filesTable(const HtmlContext& ctx) {
  struct FileRow {
    const FileRecord* record = nullptr;
    std::vector<const KernelRecord*> kernels;
    size_t accesses = 0, findings = 0;
    std::optional<double> worst;
    std::map<std::string, size_t> findingsOfKernel;  // a merged finding counts for each kernel it covers
  };
  std::map<std::string, FileRow> rows;
  for (const FileRecord& f : ctx.analysis.files) rows[f.path].record = &f;
  for (const KernelRecord& k : ctx.analysis.kernels) rows[k.loc.file].kernels.push_back(&k);
  for (const AccessSite& a : ctx.analysis.accesses) ++rows[a.loc.file].accesses;
  for (size_t i = 0; i < ctx.report.findings.size(); ++i) {
    const Finding& f = ctx.report.findings[i];
    FileRow& r = rows[f.loc.file];
    ++r.findings;
    if (f.instantiations.empty())
      ++r.findingsOfKernel[f.kernel];
    else
      for (const std::string& k : f.instantiations) ++r.findingsOfKernel[k];
    if (const auto& c = ctx.costs[i].excessPerRequest) r.worst = std::max(r.worst.value_or(0.0), *c);
  }
  std::string out = "<section id=\"files\"><h2>Files</h2>\n<table class=\"t sortable\"><thead><tr>" +
                    html::sortableHeader("File", false) + "<th>Status</th><th>Kernels (block shape, where from)</th>" +
                    html::sortableHeader("Accesses", true) + html::sortableHeader("Findings", true) +
                    html::sortableHeader("Worst cost", true) + "</tr></thead><tbody>\n";
  for (const auto& [path, r] : rows) {
    if (path.empty()) continue;
    const auto view = ctx.viewOf.find(path);
    std::string name = escape(path);
    if (view != ctx.viewOf.end()) name = fmt::format("<a href=\"#{}\">{}</a>", viewAnchor(view->second), name);
    std::string status = r.record ? std::string(toString(r.record->status)) : "included";
    if (r.record && r.record->status == Status::Failed) status = "<span class=\"mark\">failed</span>";
    std::string kernels;
    for (const KernelRecord* k : r.kernels) {
      if (!kernels.empty()) kernels += "<br>";
      kernels += "<code>" + escape(k->name) + "</code> ";
      if (k->status == Status::Failed)
        kernels += "<span class=\"mark\">not analysed</span>";
      else
        kernels += fmt::format("<span class=\"muted\">{}, {}</span>", dims(k->block.dim), toString(k->block.source));
      if (const auto n = r.findingsOfKernel.find(k->name); n != r.findingsOfKernel.end())
        kernels += fmt::format(" &middot; {} finding{}", n->second, n->second == 1 ? "" : "s");
    }
    out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
                       "<td class=\"num\" data-v=\"{}\">{}</td></tr>\n",
                       name, status, kernels, r.accesses, r.findings, r.worst ? fmt::format("{:.2f}", *r.worst) : "-1",
                       r.worst ? fmt::format("{:.2f}", *r.worst) : "&ndash;");
  }
  return out + "</tbody></table></section>\n";
}

}  // namespace coalesce::report::detail
