#include "orientation_level.h"
#include "finding_site.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "format.h"

namespace coalesce::report::detail {

namespace {

// The array an access indexes, as written: the text before its first '[' when that is a name
// or a member chain (`d_in`, `p->rows`, `s.data`); empty otherwise (casts, pointer arithmetic).
std::string arrayName(std::string_view expression) {
  const size_t bracket = expression.find('[');
  if (bracket == std::string_view::npos || bracket == 0) return "";
  const std::string_view base = expression.substr(0, bracket);
  if (!(std::isalpha(static_cast<unsigned char>(base.front())) || base.front() == '_')) return "";
  for (const char c : base)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' || c == '>')) return "";
  return std::string(base);
}

bool wastesSectors(const model::GlobalFigures& g) {
  const double allowance = std::max(1.0, g.idealSectors / 8);
  return g.sectorsPerRequest > g.idealSectors + allowance + 1e-9;
}

// The block's warps share none of the access's sectors: a tile that loads the block's bytes
// once would move as many sectors as the warps do now.
bool noTileHelps(const AccessSite& site) {
  const BlockReuse& r = site.blockReuse;
  return r.known && r.warpSectors > 0 && r.blockSectors >= 0.9 * r.warpSectors;
}

}  // namespace

void capMinorityOrientation(std::vector<Finding>& findings, const AnalysisResult& analysis) {
  for (Finding& f : findings) {
    const AccessSite* found = accessSiteOf(f, analysis);
    if (!found) continue;
    const AccessSite& site = *found;
    if (site.access.space != model::Space::Global || !site.figures.global || site.launchRequests <= 0) continue;
    if (!wastesSectors(site.figures.global->aligned) || !noTileHelps(site)) continue;
    const std::string name = arrayName(site.expression);
    if (name.empty()) continue;
    // The busiest coalesced access of the same array in the same kernel.
    const AccessSite* majority = nullptr;
    for (const AccessSite& other : analysis.accesses) {
      if (other.id == site.id || other.kernel != site.kernel || other.access.space != model::Space::Global) continue;
      if (other.loc.file == site.loc.file && other.loc.line == site.loc.line && other.loc.column == site.loc.column)
        continue;  // the same place (a device function called twice): not another access
      if (!other.figures.global || other.launchRequests < site.launchRequests) continue;
      if (wastesSectors(other.figures.global->aligned) || arrayName(other.expression) != name) continue;
      if (!majority || other.launchRequests > majority->launchRequests) majority = &other;
    }
    if (!majority) continue;
    const double ratio = majority->launchRequests / site.launchRequests;
    f.severityCap = std::min(f.severityCap.value_or(Severity::Note), Severity::Note);
    f.severityCapReason = fmt::format(
        "a note, not a warning: no shared-memory tile helps (the block's warps share none of its sectors), and a "
        "layout that coalesced it would scatter the coalesced {} of '{}' at line {}, which runs {}",
        toString(majority->access.kind), majority->expression, majority->loc.line,
        ratio < 1.05 ? std::string("as often") : fmt::format("{}x as often", number(ratio)));
  }
}

}  // namespace coalesce::report::detail
