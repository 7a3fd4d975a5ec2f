// The --explain entry points: parsing FILE:LINE[:COL], finding the accesses there, and
// choosing the picture for the access's memory space.
#include "coalesce/report/explain.h"

#include <charconv>

#include <fmt/format.h>

#include "explain_pictures.h"
#include "format.h"
#include "paths.h"

namespace coalesce::report {

namespace {

std::optional<unsigned> parseNumber(std::string_view s) {
  unsigned v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

bool samePath(const std::string& recorded, const std::string& given) {
  const std::string a = detail::normalisePath(recorded), b = detail::normalisePath(given);
  if (a == b) return true;
  auto endsWithOnBoundary = [](const std::string& longer, const std::string& shorter) {
    return longer.size() > shorter.size() && longer.compare(longer.size() - shorter.size(), shorter.size(), shorter) == 0 &&
           longer[longer.size() - shorter.size() - 1] == '/';
  };
  return endsWithOnBoundary(a, b) || endsWithOnBoundary(b, a);
}

}  // namespace

Result<ExplainTarget> parseExplainTarget(std::string_view text) {
  // Split from the right: file names may contain ':', line and column never do.
  const auto bad = ReportError{fmt::format("--explain expects FILE:LINE[:COL], not '{}'", text)};
  const size_t last = text.rfind(':');
  if (last == std::string_view::npos) return bad;
  const auto tail = parseNumber(text.substr(last + 1));
  if (!tail) return bad;
  ExplainTarget t;
  const std::string_view head = text.substr(0, last);
  const size_t prev = head.rfind(':');
  if (prev != std::string_view::npos) {
    if (auto line = parseNumber(head.substr(prev + 1))) {
      t.file = std::string(head.substr(0, prev));
      t.line = *line;
      t.column = *tail;
    }
  }
  if (t.file.empty()) {
    t.file = std::string(head);
    t.line = *tail;
  }
  if (t.file.empty() || t.line == 0) return bad;
  return t;
}

bool atTarget(const SourceLocation& loc, const ExplainTarget& target) {
  return loc.line == target.line && (!target.column || loc.column == *target.column) && samePath(loc.file, target.file);
}

std::vector<const AccessSite*> accessesAt(const AnalysisResult& analysis, const ExplainTarget& target) {
  std::vector<const AccessSite*> out;
  for (const AccessSite& a : analysis.accesses)
    if (atTarget(a.loc, target)) out.push_back(&a);
  return out;
}

std::string explainAccess(const AccessSite& site, const model::Arch& arch, const ExplainOptions& options) {
  std::string out = fmt::format("{}:{}:{}: {} ({}, {} bytes per lane) in kernel '{}'\n", site.loc.file, site.loc.line,
                                site.loc.column, detail::accessPhrase(site),
                                site.elementType.empty() ? "?" : site.elementType, site.access.bytesPerLane,
                                site.kernel);
  switch (site.access.space) {
    case model::Space::Global: return out + detail::globalPicture(site, arch, options.warp);
    case model::Space::Shared: return out + detail::sharedPicture(site, arch, options.warp);
    default:
      return out + fmt::format("{} memory: not a coalescing or bank-conflict question; nothing to draw\n",
                               model::toString(site.access.space));
  }
}

}  // namespace coalesce::report
