#include "data_guard_level.h"
#include "finding_site.h"

#include <algorithm>
#include <string>

#include <fmt/format.h>

namespace coalesce::report::detail {

void capDataGuardedAccesses(std::vector<Finding>& findings, const AnalysisResult& analysis) {
  for (Finding& f : findings) {
    const AccessSite* found = accessSiteOf(f, analysis);
    if (!found) continue;
    const AccessSite& site = *found;
    if (site.dataGuards.empty() || !site.executed) continue;
    // An earlier cap keeps its reason: one is enough to say why the finding is a note.
    if (f.severityCap && *f.severityCap <= Severity::Note) continue;
    std::string conditions;
    for (const std::string& g : site.dataGuards) conditions += (conditions.empty() ? "`" : "` and `") + g;
    f.severityCap = Severity::Note;
    f.severityCapReason = fmt::format(
        "a note, not a warning: it runs only where {}` {}, a test of values each thread loads (or computes "
        "in ways the analysis does not follow), so how often it runs, and what it wastes, is not known "
        "statically; the figures assume every lane passes. If that path is the common one, the figures stand",
        conditions, site.dataGuards.size() > 1 ? "hold" : "holds");
  }
}

}  // namespace coalesce::report::detail
