// The HTML page: a header, the run's summary, the findings index, the files table, one
// source view per file and the legend, in the shell of lib/html (page.h), which supplies
// the style sheet and the script. The parts are html_index.cpp (summary, index, files),
// html_source_view.cpp and html_finding.cpp; the drawings are lib/html/src/warp_svg.cpp.
#include "coalesce/report/html_writer.h"

#include <set>

#include <fmt/format.h>

#include "coalesce/html/escape.h"
#include "coalesce/html/page.h"
#include "coalesce/report/summary.h"
#include "cost.h"
#include "html_parts.h"

namespace coalesce::report {

namespace detail {

std::string findingAnchor(size_t finding) { return fmt::format("f{}", finding); }
std::string viewAnchor(size_t view) { return fmt::format("s{}", view); }

std::string_view wasteClass(const AccessSite& site) {
  const model::AccessFigures& f = site.figures;
  if (!site.executed) return "wn";
  if (f.global) {
    const auto& g = f.global->aligned;
    return html::cssClass(html::wasteOf(g.idealSectors > 0 ? g.sectorsPerRequest / g.idealSectors : 1.0));
  }
  if (f.shared) return html::cssClass(html::wasteOf(f.shared->aligned.conflictDegree));
  if (f.sectorRange || f.wavefrontRange) return "wu";
  return "";
}

const AccessSite* accessOf(const HtmlContext& ctx, const Finding& finding) {
  const auto& accesses = ctx.analysis.accesses;
  if (!finding.access || *finding.access < 0 || static_cast<size_t>(*finding.access) >= accesses.size()) return nullptr;
  return &accesses[static_cast<size_t>(*finding.access)];
}

std::string costText(const FindingCost& cost) {
  if (!cost.excessPerRequest) return "";
  if (cost.perLaunch) return byteSize(*cost.excessPerRequest);
  return fmt::format("{:.2f}", *cost.excessPerRequest);
}

}  // namespace detail

void writeHtml(std::ostream& out, const Report& report, const HtmlOptions& options) {
  using namespace detail;
  HtmlOptions opts = options;
  if (!opts.readSource) opts.readSource = diskSourceReader();
  const auto parsed = model::parseArch(report.arch);
  const model::Arch& arch = parsed ? *parsed : model::defaultArch();
  html::PictureSymbols pictures;
  HtmlContext ctx{report, *report.analysis, arch, opts, true, {}, {}, &pictures};
  ctx.openPictures = report.findings.size() <= opts.openPicturesUpTo;
  for (const Finding& f : report.findings) ctx.costs.push_back(findingCost(f, *report.analysis));

  // A source view for every file that holds an access or a finding, in path order.
  std::set<std::string> paths;
  for (const AccessSite& a : ctx.analysis.accesses)
    if (!a.loc.file.empty()) paths.insert(a.loc.file);
  for (const Finding& f : report.findings)
    if (!f.loc.file.empty()) paths.insert(f.loc.file);
  for (const std::string& p : paths) ctx.viewOf.emplace(p, ctx.viewOf.size());

  const Summary s = summarize(report);
  std::string body = "<header><h1>";
  html::appendEscaped(body, report.tool.name);
  body += " report</h1><p>";
  body += fmt::format("{} finding{} in {} file{} &middot; {} &middot; ", s.findings, s.findings == 1 ? "" : "s", s.files,
                      s.files == 1 ? "" : "s", html::escape(report.arch));
  html::appendEscaped(body, report.tool.name + " " + report.tool.version);
  body += "</p></header>\n<nav><a href=\"#summary\">Summary</a><a href=\"#index\">Findings</a>"
          "<a href=\"#files\">Files</a><a href=\"#sources\">Sources</a><a href=\"#legend\">Legend</a></nav>\n<main>\n";
  body += summarySection(ctx);
  body += findingsIndex(ctx);
  body += filesTable(ctx);
  body += "<section id=\"sources\"><h2>Sources</h2>\n"
          "<button type=\"button\" class=\"tg\" data-open=\"1\" hidden>Open every warp picture</button>"
          "<button type=\"button\" class=\"tg\" data-open=\"0\" hidden>Close every warp picture</button>\n";
  for (const auto& [path, view] : ctx.viewOf) body += sourceView(ctx, path, view);
  if (ctx.viewOf.empty()) body += "<p class=\"muted\">No file holds an access or a finding.</p>\n";
  body += "</section>\n";
  body += html::legend();
  body += "</main>\n";
  body += pictures.symbols();
  out << html::page(report.tool.name + " report", body);
}

}  // namespace coalesce::report
