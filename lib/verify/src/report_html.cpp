// The verify report as one HTML page (docs/html-report.md): the device and the verdicts,
// the disagreements first with their reasons, every compared line with the predicted and
// measured figures side by side, the branches, and a source view per predicted file whose
// compared lines carry both figures. The shell, escaping and source windows are lib/html's.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "coalesce/html/escape.h"
#include "coalesce/html/page.h"
#include "coalesce/html/source_lines.h"
#include "coalesce/html/warp_layout.h"
#include "coalesce/html/warp_svg.h"
#include "coalesce/model/access_model.h"
#include "coalesce/model/arch.h"
#include "coalesce/verify/format_number.h"
#include "coalesce/verify/report.h"

namespace coalesce::verify {

namespace {

using html::escape;

// Above this many compared lines the warp pictures start closed, as the lint page's above
// 100 findings (HtmlOptions::openPicturesUpTo), so a large run's page opens quickly.
constexpr size_t kOpenPicturesUpTo = 100;

bool disagrees(Verdict v) { return v == Verdict::Mismatch; }
bool disagrees(BranchVerdict v) { return v == BranchVerdict::Contradicted; }

// How far a verdict is from "confirmed", for sorting (largest first): disagreements, then
// what could not be checked, then agreement.
int weight(Verdict v) {
  switch (v) {
    case Verdict::Mismatch: return 5;
    case Verdict::Unpredicted: return 4;
    case Verdict::NotFound: return 3;
    case Verdict::Unchecked: return 2;
    case Verdict::WithinRange: return 1;
    case Verdict::Match: return 0;
  }
  return 0;
}
int weight(BranchVerdict v) {
  switch (v) {
    case BranchVerdict::Contradicted: return 5;
    case BranchVerdict::NoCounter: return 3;
    case BranchVerdict::Unpredicted: return 2;
    case BranchVerdict::Confirmed: return 0;
  }
  return 0;
}

// Agreement in the pages' colours: blue agrees, vermillion disagrees, dashed could not tell.
std::string_view verdictClass(int w) { return w == 0 || w == 1 ? "w0" : w == 5 ? "w3" : "wn"; }

template <class V>
std::string verdictBadge(V v, const std::string& basis) {
  const int w = weight(v);
  std::string text(toString(v));
  if (!basis.empty()) text += " (" + basis + ")";
  return fmt::format("<span class=\"b {}\">{}{}</span>", verdictClass(w), disagrees(v) ? "&#10007; " : "",
                     escape(text));
}

std::string lineBasis(const LineComparison& l) {
  return l.basis == Basis::RatioToIdeal ? "by ratio to ideal" : l.basis == Basis::Bounds ? "in range" : "";
}

std::string unitOf(const LineComparison& l) { return l.cls.space == model::Space::Shared ? "wavefronts" : "sectors"; }

std::string predictedText(const LineComparison& l) {
  if (l.predictedPerRequest) return formatNumber(*l.predictedPerRequest);
  if (l.predictedRange)
    return fmt::format("{}&ndash;{}", formatNumber(l.predictedRange->first), formatNumber(l.predictedRange->second));
  return "&ndash;";
}

std::string measuredText(const LineComparison& l) {
  return l.measured.requests ? formatNumber(l.measured.perRequest()) : "&ndash;";
}

std::string classText(const LineComparison& l) {
  return fmt::format("{} {}", model::toString(l.cls.space), model::toString(l.cls.kind));
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::string notesList(const std::vector<std::string>& notes) {
  if (notes.empty()) return "";
  std::string out = "<ul>";
  for (const std::string& n : notes) out += "<li>" + escape(n) + "</li>";
  return out + "</ul>";
}

std::string branchPredicted(const BranchComparison& c) {
  return fmt::format("{} of {} warp requests divergent ({})", c.lineDivergentRequests, c.lineWarpRequests,
                     formatNumber(c.predictedShare()));
}

std::string branchMeasured(const BranchComparison& c) {
  const BranchMeasured& m = c.measured;
  std::vector<std::string> parts;
  if (c.targetsDivergent)
    parts.push_back(fmt::format("{} of {} branch executions divergent ({})", m.divergent, m.divergent + m.uniform,
                                formatNumber(*m.divergentShare())));
  if (c.lanesDivergent)
    parts.push_back(fmt::format("lanes: {} reaching, {} fewest under it", formatNumber(*m.reachingLanes),
                                formatNumber(*m.fewestLanes)));
  return parts.empty() ? "&ndash;" : joined(parts);
}

struct Views {
  std::map<std::string, size_t> ids;  // file -> view number (anchor "s<N>")
  std::string anchor(const std::string& file, unsigned line) const {
    auto it = ids.find(file);
    return it == ids.end() ? "" : fmt::format("s{}-{}", it->second, line);
  }
};

std::string placeLink(const Views& views, const std::string& file, unsigned line) {
  const std::string text = escape(fmt::format("{}:{}", file, line));
  const std::string anchor = views.anchor(file, line);
  return anchor.empty() ? text : fmt::format("<a href=\"#{}\">{}</a>", anchor, text);
}

std::string summarySection(const VerifyReport& r, int exitCode) {
  std::string out = "<section id=\"summary\"><h2>Summary</h2><dl class=\"sum\">";
  if (!r.device.name.empty())
    out += fmt::format("<dt>Device</dt><dd>{} (sm_{}{})</dd>", escape(r.device.name), r.device.sm,
                       r.device.chip.empty() ? "" : ", " + escape(r.device.chip));
  size_t lines = r.lines.size();
  for (const ConfigurationComparison& c : r.configurations) lines += c.lines.size();
  out += fmt::format("<dt>Lines compared</dt><dd>{}</dd>", lines);
  for (Verdict v : {Verdict::Match, Verdict::Mismatch, Verdict::WithinRange, Verdict::NotFound, Verdict::Unpredicted,
                    Verdict::Unchecked})
    if (r.count(v)) out += fmt::format("<dt>{}</dt><dd>{}</dd>", verdictBadge(v, ""), r.count(v));
  if (!r.branches.empty()) {
    out += fmt::format("<dt>Branches compared</dt><dd>{}</dd>", r.branches.size());
    for (BranchVerdict v : {BranchVerdict::Confirmed, BranchVerdict::Contradicted, BranchVerdict::NoCounter,
                           BranchVerdict::Unpredicted})
      if (r.count(v)) out += fmt::format("<dt>{}</dt><dd>{}</dd>", verdictBadge(v, ""), r.count(v));
  }
  out += fmt::format("<dt>Exit code</dt><dd>{} ({})</dd></dl>", exitCode,
                     exitCode == kExitOk         ? "every predicted line confirmed"
                     : exitCode == kExitMismatch ? "a mismatch or a contradicted branch"
                     : exitCode == kExitIncomplete ? "predicted lines with no executed instruction"
                                                   : "could not verify");
  out += notesList(r.notes);
  return out + "</section>\n";
}

std::string disagreementsSection(const VerifyReport& r, const Views& views) {
  std::string items;
  for (const LineComparison& l : r.lines)
    if (disagrees(l.verdict))
      items += fmt::format("<li>{} {}: predicted {} {} per request, measured {}: {}{}</li>",
                           placeLink(views, l.file, l.line), classText(l), predictedText(l), unitOf(l),
                           measuredText(l), verdictBadge(l.verdict, lineBasis(l)), notesList(l.notes));
  for (const BranchComparison& c : r.branches)
    if (disagrees(c.verdict))
      items += fmt::format("<li>{} branch <code>{}</code>: predicted {}; measured {}: {}{}</li>",
                           placeLink(views, c.predicted.file, c.predicted.line), escape(c.predicted.condition),
                           branchPredicted(c), branchMeasured(c),
                           verdictBadge(c.verdict, std::string(toString(c.basis))), notesList(c.notes));
  for (const ConfigurationComparison& c : r.configurations)
    for (const LineComparison& l : c.lines)
      if (disagrees(l.verdict))
        items += fmt::format("<li>{} {} in configuration {} of <code>{}</code> (block {}x{}x{}): predicted {} {} per "
                             "request, measured {}: {}{}</li>",
                             escape(fmt::format("{}:{}", l.file, l.line)), classText(l), c.ordinal, escape(c.kernel),
                             c.config.block[0], c.config.block[1], c.config.block[2], predictedText(l), unitOf(l),
                             measuredText(l), verdictBadge(l.verdict, lineBasis(l)), notesList(l.notes));
  return "<section id=\"disagreements\"><h2>Disagreements</h2>" +
         (items.empty() ? std::string("<p>None: every compared line and branch agrees or could not be checked.</p>")
                        : "<ul>" + items + "</ul>") +
         "</section>\n";
}

std::string linesTable(const VerifyReport& r, const Views& views) {
  std::string out = "<section id=\"lines\"><h2>Lines: predicted and measured</h2>\n<p>Sectors (global) or "
                    "wavefronts (shared) per warp request; ideal as predicted / measured.</p>\n"
                    "<table class=\"t sortable\"><thead><tr>" +
                    html::sortableHeader("Place", false) + html::sortableHeader("Access", false) +
                    "<th>Kernels</th>" + html::sortableHeader("Predicted", true) +
                    html::sortableHeader("Measured", true) + "<th>Ideal</th>" + html::sortableHeader("Verdict", true) +
                    "<th>Notes</th></tr></thead><tbody>\n";
  for (const LineComparison& l : r.lines) {
    const std::string ideal =
        fmt::format("{} / {}", l.predictedIdeal ? formatNumber(*l.predictedIdeal) : "&ndash;",
                    l.measured.requests ? formatNumber(l.measured.idealPerRequest()) : "&ndash;");
    out += fmt::format("<tr{}><td data-v=\"{}\">{}</td><td class=\"nw\">{}</td><td>{}</td>"
                       "<td class=\"num\" data-v=\"{}\">{}</td>"
                       "<td class=\"num\" data-v=\"{}\">{}</td><td class=\"num\">{}</td><td data-v=\"{}\">{}</td>"
                       "<td>{}</td></tr>\n",
                       disagrees(l.verdict) ? " class=\"dis\"" : "", escape(fmt::format("{}\t{:09}", l.file, l.line)),
                       placeLink(views, l.file, l.line), classText(l), escape(joined(l.kernels)),
                       l.predictedPerRequest ? formatNumber(*l.predictedPerRequest) : "-1", predictedText(l),
                       l.measured.requests ? formatNumber(l.measured.perRequest()) : "-1", measuredText(l), ideal,
                       weight(l.verdict), verdictBadge(l.verdict, lineBasis(l)), notesList(l.notes));
  }
  return out + "</tbody></table></section>\n";
}

std::string branchesTable(const VerifyReport& r, const Views& views) {
  if (r.branches.empty()) return "";
  std::string out = "<section id=\"branches\"><h2>Branches: predicted and measured divergence</h2>\n"
                    "<table class=\"t sortable\"><thead><tr>" +
                    html::sortableHeader("Place", false) + "<th>Branch</th><th>Predicted</th><th>Measured</th>" +
                    html::sortableHeader("Verdict", true) + "<th>Notes</th></tr></thead><tbody>\n";
  for (const BranchComparison& c : r.branches) {
    const PredictedBranch& b = c.predicted;
    out += fmt::format("<tr{}><td data-v=\"{}\">{}</td><td>{} <code>{}</code> in <code>{}</code></td><td>{}</td>"
                       "<td>{}</td><td data-v=\"{}\">{}</td><td>{}</td></tr>\n",
                       disagrees(c.verdict) ? " class=\"dis\"" : "", escape(fmt::format("{}\t{:09}", b.file, b.line)),
                       placeLink(views, b.file, b.line), escape(b.kind), escape(b.condition), escape(b.kernel),
                       branchPredicted(c), branchMeasured(c), weight(c.verdict),
                       verdictBadge(c.verdict, c.basis == BranchBasis::None ? "" : std::string(toString(c.basis))),
                       notesList(c.notes));
  }
  return out + "</tbody></table></section>\n";
}

// Kernels measured in several configurations (compare_configurations.cpp): per configuration, its
// launch, what its prediction was made for, and its lines. Places are plain text: the source views
// mark the pooled lines only.
std::string configurationsSection(const VerifyReport& r) {
  if (r.configurations.empty()) return "";
  std::string out = "<section id=\"configurations\"><h2>Configurations compared apart</h2>\n";
  for (const ConfigurationComparison& c : r.configurations) {
    const LaunchConfig& l = c.config;
    out += fmt::format("<h3>Configuration {} of {} of <code>{}</code>: grid {}x{}x{}, block {}x{}x{}, {} bytes "
                       "dynamic shared memory, {} launch{}</h3>\n<p>{}</p>\n",
                       c.ordinal, c.ofKernel, escape(c.kernel), l.grid[0], l.grid[1], l.grid[2], l.block[0],
                       l.block[1], l.block[2], l.sharedBytes, l.launches, l.launches == 1 ? "" : "es",
                       escape(c.predictedForDetail));
    out += "<table class=\"t\"><thead><tr><th>Place</th><th>Access</th><th>Predicted</th><th>Measured</th>"
           "<th>Verdict</th><th>Notes</th></tr></thead><tbody>\n";
    for (const LineComparison& line : c.lines)
      out += fmt::format("<tr{}><td>{}</td><td class=\"nw\">{}</td><td class=\"num\">{}</td>"
                         "<td class=\"num\">{}</td><td>{}</td><td>{}</td></tr>\n",
                         disagrees(line.verdict) ? " class=\"dis\"" : "",
                         escape(fmt::format("{}:{}", line.file, line.line)), classText(line), predictedText(line),
                         measuredText(line), verdictBadge(line.verdict, lineBasis(line)), notesList(line.notes));
    for (const BranchComparison& b : c.branches)
      out += fmt::format("<tr{}><td>{}</td><td>branch <code>{}</code></td><td>{}</td><td>{}</td><td>{}</td>"
                         "<td>{}</td></tr>\n",
                         disagrees(b.verdict) ? " class=\"dis\"" : "",
                         escape(fmt::format("{}:{}", b.predicted.file, b.predicted.line)),
                         escape(b.predicted.condition), branchPredicted(b), branchMeasured(b),
                         verdictBadge(b.verdict, b.basis == BranchBasis::None ? "" : std::string(toString(b.basis))),
                         notesList(b.notes));
    out += "</tbody></table>" + notesList(c.notes) + "\n";
  }
  return out + "</section>\n";
}

// What the pictures of one page share: the model's geometry for the device measured, every
// drawing kept once (lib/html/src/warp_svg.cpp), and whether they start open.
struct Pictures {
  model::Arch arch;
  html::PictureSymbols symbols;
  bool open = true;
};

// The predicted warp of one access, drawn from the lanes the JSON report gives (kind,
// bytes per threadIdx axis, block shape), when that is enough: the drawing is re-evaluated
// by the model and shown only when its figure is the predicted one (the JSON has no base
// offset, guards or enumerated offsets, which the prediction may rest on).
std::string predictedFigure(const LineComparison& l, const PredictedAccess& a, Pictures& pictures) {
  const model::PatternKind kind = a.lanes.kind;
  const std::string what = a.expression.empty() ? classText(l) : "<code>" + escape(a.expression) + "</code>";
  const auto noPicture = [&](const std::string& why) {
    return fmt::format("<figure><figcaption><b>Predicted</b> {}</figcaption><p>No picture: {}.</p></figure>", what,
                       why);
  };
  if (a.pattern.empty())
    return noPicture("the predictions file gives no lane pattern for this access (the analyzer's JSON report gives "
                     "its pattern, lane_strides and block)");
  if (kind == model::PatternKind::Indirect)
    return noPicture("the address goes through loaded indices (a gather): there are no lanes to draw, only the "
                     "range of the prediction");
  if (kind == model::PatternKind::Enumerated)
    return noPicture("the lanes were enumerated per thread, and the predictions file does not carry their offsets");
  if (kind != model::PatternKind::Affine && kind != model::PatternKind::Uniform)
    return noPicture("the address could not be followed statically");
  if (!a.block || a.bytes <= 0)
    return noPicture("the predictions file gives no block shape or width for this access (the analyzer's JSON "
                     "report gives them)");
  const model::Access access{a.space, a.kind, a.bytes, a.lanes};
  const model::AccessFigures f = model::analyzeAccess(access, *a.block, pictures.arch);
  std::optional<double> drawn;
  if (a.space == model::Space::Global && f.global) drawn = f.global->aligned.sectorsPerRequest;
  if (a.space == model::Space::Shared && f.shared) drawn = f.shared->aligned.wavefronts;
  const std::optional<double> predicted = a.perRequest();
  if (!drawn || !predicted) return noPicture("the predictions give no figure per request to draw it against");
  if (std::abs(*drawn - *predicted) > 1e-6 * std::max(1.0, std::abs(*predicted)))
    return fmt::format("<figure><figcaption><b>Predicted</b> {}</figcaption><p>No picture: the lanes the predictions "
                       "file gives (bytes per thread index, no base offset, every lane active) make {} {} per "
                       "request, not the predicted {}; the prediction rests on what the file does not carry.</p>"
                       "</figure>",
                       what, formatNumber(*drawn), unitOf(l), formatNumber(*predicted));
  const int64_t warp = html::costliestWarp(access, *a.block, pictures.arch);
  const auto p = html::warpPicture(access, *a.block, pictures.arch, warp);
  if (!p) return "";
  const std::string ideal = l.measured.requests ? formatNumber(l.measured.idealPerRequest()) : "&ndash;";
  return fmt::format("<figure><figcaption><b>Predicted</b> {}: warp {} of {} in a block of {}x{}x{}<br>this warp: "
                     "{}; block average {} {} per request<br><b>Measured</b>: {} {} per request (ideal {})"
                     "</figcaption>{}</figure>",
                     what, warp, model::warpCount(*a.block, pictures.arch), a.block->x, a.block->y, a.block->z,
                     escape(p->summary), formatNumber(*predicted), unitOf(l), measuredText(l), unitOf(l), ideal,
                     pictures.symbols.svg(*p));
}

// Every predicted warp of a compared line that can be drawn; empty when none can.
std::string predictedPictures(const LineComparison& l, Pictures& pictures) {
  std::string figures;
  for (const PredictedAccess& a : l.predicted) figures += predictedFigure(l, a, pictures);
  if (figures.empty()) return "";
  return fmt::format("<details class=\"pic\"{}><summary>Warp picture: {} as predicted, beside the measured "
                     "figure</summary><div class=\"pics\">{}</div></details>",
                     pictures.open ? " open" : "", classText(l), figures);
}

// One predicted file: each compared line with its figures side by side in the gutter.
std::string sourceView(const VerifyReport& r, const std::string& file, size_t view, const SourceText& readSource,
                       Pictures& pictures) {
  std::map<unsigned, std::vector<const LineComparison*>> linesOn;
  std::map<unsigned, std::vector<const BranchComparison*>> branchesOn;
  for (const LineComparison& l : r.lines)
    if (l.file == file && l.line > 0) linesOn[l.line].push_back(&l);
  for (const BranchComparison& c : r.branches)
    if (c.predicted.file == file && c.predicted.line > 0) branchesOn[c.predicted.line].push_back(&c);
  std::set<unsigned> annotated;
  for (const auto& [n, list] : linesOn) annotated.insert(n);
  for (const auto& [n, list] : branchesOn) annotated.insert(n);

  const std::optional<std::string> text = readSource ? readSource(file) : std::nullopt;
  const std::vector<std::string_view> lines = text ? html::splitLines(*text) : std::vector<std::string_view>{};
  const std::vector<unsigned> shown =
      html::linesToShow(text ? std::optional<size_t>(lines.size()) : std::nullopt, annotated);

  std::string out = fmt::format("<section class=\"file\" id=\"s{}\"><h3>{}</h3>\n", view, escape(file));
  if (!text) out += "<p class=\"muted\">This file could not be read: only its compared lines are listed.</p>\n";
  out += "<table class=\"src\">";
  unsigned previous = 0;
  for (unsigned n : shown) {
    if (n > previous + 1) out += html::gapRow(n - previous - 1);
    previous = n;
    std::string gutter;
    bool disagreement = false;
    std::vector<std::string> notes;
    std::string drawn;
    if (auto it = linesOn.find(n); it != linesOn.end())
      for (const LineComparison* l : it->second) {
        drawn += predictedPictures(*l, pictures);
        gutter += fmt::format("<span class=\"b {}\" title=\"{}\">{}: pred {} &middot; meas {} {}{}</span>",
                              verdictClass(weight(l->verdict)), escape(classText(*l) + ", " + unitOf(*l) + " per request"),
                              classText(*l), predictedText(*l), measuredText(*l), disagrees(l->verdict) ? "&#10007; " : "",
                              toString(l->verdict));
        if (disagrees(l->verdict)) {
          disagreement = true;
          notes.insert(notes.end(), l->notes.begin(), l->notes.end());
        }
      }
    if (auto it = branchesOn.find(n); it != branchesOn.end())
      for (const BranchComparison* c : it->second) {
        gutter += fmt::format("<span class=\"b {}\" title=\"{}\">branch: pred {} &middot; meas {} {}{}</span>",
                              verdictClass(weight(c->verdict)), escape(c->predicted.condition),
                              formatNumber(c->predictedShare()),
                              c->measured.divergentShare() ? formatNumber(*c->measured.divergentShare()) : "&ndash;",
                              disagrees(c->verdict) ? "&#10007; " : "", toString(c->verdict));
        if (disagrees(c->verdict)) {
          disagreement = true;
          notes.insert(notes.end(), c->notes.begin(), c->notes.end());
        }
      }
    const std::string_view code = text && n <= lines.size() ? lines[n - 1] : std::string_view();
    out += fmt::format("<tr id=\"s{}-{}\"{}><td class=\"n\">{}</td><td class=\"a\">{}</td><td class=\"c\">{}</td></tr>",
                       view, n, disagreement ? " class=\"dis\"" : "", n, gutter, escape(code));
    if (disagreement && !notes.empty())
      out += "<tr class=\"fnd\"><td colspan=\"3\"><div class=\"f error\">" + notesList(notes) + "</div></td></tr>";
    if (!drawn.empty()) out += "<tr class=\"fnd\"><td colspan=\"3\">" + drawn + "</td></tr>";
    out += "\n";
  }
  if (text && previous < lines.size() && !shown.empty()) out += html::gapRow(lines.size() - previous);
  return out + "</table></section>\n";
}

}  // namespace

std::string formatHtml(const VerifyReport& r, int exitCode, const SourceText& readSource) {
  Views views;
  for (const LineComparison& l : r.lines)
    if (!l.file.empty()) views.ids.emplace(l.file, 0);
  for (const BranchComparison& c : r.branches)
    if (!c.predicted.file.empty()) views.ids.emplace(c.predicted.file, 0);
  size_t next = 0;
  for (auto& [file, id] : views.ids) id = next++;

  std::string body = "<header><h1>coalesce-lint verify report</h1><p>";
  body += escape(summaryLine(r));
  body += "</p></header>\n<nav><a href=\"#summary\">Summary</a><a href=\"#disagreements\">Disagreements</a>"
          "<a href=\"#lines\">Lines</a>";
  if (!r.branches.empty()) body += "<a href=\"#branches\">Branches</a>";
  if (!r.configurations.empty()) body += "<a href=\"#configurations\">Configurations</a>";
  body += "<a href=\"#sources\">Sources</a></nav>\n<main>\n";
  body += summarySection(r, exitCode);
  body += disagreementsSection(r, views);
  body += linesTable(r, views);
  body += branchesTable(r, views);
  body += configurationsSection(r);
  body += "<section id=\"sources\"><h2>Sources</h2>\n";
  // The model's sizes for the device measured; the default architecture without one.
  Pictures pictures{model::archForSm(r.device.sm).value_or(model::defaultArch()), {},
                    r.lines.size() <= kOpenPicturesUpTo};
  for (const auto& [file, id] : views.ids) body += sourceView(r, file, id, readSource, pictures);
  body += "</section>\n</main>" + pictures.symbols.symbols();
  return html::page("coalesce-lint verify report", body);
}

}  // namespace coalesce::verify
