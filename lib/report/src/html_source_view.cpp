// One file's source view: every line (or, in a long file, the lines around its accesses
// and findings), each access as a badge coloured by how much more memory work it does than
// it needs, and each finding inline below its line.
#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "coalesce/html/escape.h"
#include "coalesce/html/page.h"
#include "coalesce/html/source_lines.h"
#include "format.h"
#include "html_parts.h"

namespace coalesce::report::detail {

namespace {

using html::escape;

std::string_view kindShort(model::AccessKind k) {
  switch (k) {
    case model::AccessKind::Load: return "ld";
    case model::AccessKind::Store: return "st";
    case model::AccessKind::Atomic: return "atom";
  }
  return "?";
}

// The badge of one access; empty for accesses with nothing to colour (constant, local).
std::string accessBadge(const AccessSite& a) {
  const model::AccessFigures& f = a.figures;
  const std::string_view cls = wasteClass(a);
  std::string label;
  const std::string kind(kindShort(a.access.kind));
  if (!a.executed) {
    label = kind + " not run";
  } else if (f.global) {
    const auto& g = f.global->aligned;
    label = fmt::format("{} {}/{} sec &middot; &eta; {}", kind, number(g.sectorsPerRequest), number(g.idealSectors),
                        percent(g.efficiency));
  } else if (f.shared) {
    const auto& s = f.shared->aligned;
    label = fmt::format("{} {}/{} wf &middot; {}-way", kind, number(s.wavefronts), number(s.idealWavefronts),
                        number(s.conflictDegree));
  } else if (f.sectorRange) {
    label = fmt::format("{} {}&ndash;{} sec", kind, number(f.sectorRange->first), number(f.sectorRange->second));
  } else if (f.wavefrontRange) {
    label = fmt::format("{} {}&ndash;{} wf", kind, number(f.wavefrontRange->first), number(f.wavefrontRange->second));
  } else {
    return "";
  }
  std::string title = fmt::format("{} {} in kernel '{}'", model::toString(a.access.space), accessPhrase(a), a.kernel);
  if (!a.executed) title += ": " + a.notExecuted;
  return fmt::format("<span class=\"b {}\" title=\"{}\">{}</span>", cls, escape(title), label);
}

}  // namespace

std::string sourceView(const HtmlContext& ctx, const std::string& path, size_t view) {
  std::map<unsigned, std::vector<const AccessSite*>> accessesOn;
  std::map<unsigned, std::vector<size_t>> findingsOn;
  std::map<unsigned, std::string_view> recorded;  // the line texts the records carry
  std::vector<size_t> unplaced;                    // findings without a line
  for (const AccessSite& a : ctx.analysis.accesses)
    if (a.loc.file == path && a.loc.line > 0) {
      accessesOn[a.loc.line].push_back(&a);
      recorded.emplace(a.loc.line, a.lineText);
    }
  for (size_t i = 0; i < ctx.report.findings.size(); ++i) {
    const Finding& f = ctx.report.findings[i];
    if (f.loc.file != path) continue;
    if (f.loc.line == 0) {
      unplaced.push_back(i);
      continue;
    }
    findingsOn[f.loc.line].push_back(i);
    recorded.emplace(f.loc.line, f.lineText);
  }

  const std::optional<std::string> text = ctx.options.readSource(path);
  const std::vector<std::string_view> lines = text ? html::splitLines(*text) : std::vector<std::string_view>{};
  std::set<unsigned> annotated;
  for (const auto& [line, list] : accessesOn) annotated.insert(line);
  for (const auto& [line, list] : findingsOn) annotated.insert(line);
  const std::vector<unsigned> shown =
      html::linesToShow(text ? std::optional<size_t>(lines.size()) : std::nullopt, annotated);

  std::string out = fmt::format("<section class=\"file\" id=\"{}\"><h3>{}</h3>\n", viewAnchor(view), escape(path));
  if (!text)
    out += "<p class=\"muted\">This file could not be read now: the lines below are the ones the records carry.</p>\n";
  for (size_t i : unplaced) out += fmt::format("<div id=\"{}\">{}</div>\n", findingAnchor(i), findingBox(ctx, i));
  out += "<table class=\"src\">";
  unsigned previous = 0;
  for (unsigned n : shown) {
    if (n > previous + 1) out += html::gapRow(n - previous - 1);
    previous = n;
    std::string_view code = text && n <= lines.size() ? lines[n - 1] : recorded[n];
    std::string badges;
    std::set<std::string> seen;  // a template's instantiations give the same badge once
    if (auto it = accessesOn.find(n); it != accessesOn.end()) {
      auto sites = it->second;
      std::stable_sort(sites.begin(), sites.end(),
                       [](const AccessSite* a, const AccessSite* b) { return a->loc.column < b->loc.column; });
      for (const AccessSite* a : sites)
        if (std::string b = accessBadge(*a); !b.empty() && seen.insert(b).second) badges += b;
    }
    const bool hit = findingsOn.count(n) != 0;
    out += fmt::format("<tr{}><td class=\"n\">{}</td><td class=\"a\">{}</td><td class=\"c\">{}</td></tr>",
                       hit ? " class=\"hit\"" : "", n, badges, escape(code));
    if (hit)
      for (size_t i : findingsOn[n])
        out += fmt::format("<tr class=\"fnd\" id=\"{}\"><td colspan=\"3\">{}</td></tr>", findingAnchor(i),
                           findingBox(ctx, i));
    out += "\n";
  }
  if (text && previous < lines.size() && !shown.empty()) out += html::gapRow(lines.size() - previous);
  return out + "</table></section>\n";
}

}  // namespace coalesce::report::detail
