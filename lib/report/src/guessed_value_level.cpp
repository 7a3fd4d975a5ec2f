#include "guessed_value_level.h"
#include "finding_site.h"

#include <string>

#include <fmt/format.h>

namespace coalesce::report::detail {

void capGuessedValueAccesses(std::vector<Finding>& findings, const AnalysisResult& analysis) {
  for (Finding& f : findings) {
    const AccessSite* found = accessSiteOf(f, analysis);
    if (!found) continue;
    const AccessSite& site = *found;
    if (site.guessedScalars.empty() || !site.executed) continue;
    // An earlier cap keeps its reason: one is enough to say why the finding is a note.
    if (f.severityCap && *f.severityCap <= Severity::Note) continue;
    std::string values, names;
    for (const std::string& v : site.guessedScalars) {
      values += (values.empty() ? "`" : "`, `") + v;
      names += (names.empty() ? "" : " ") + std::string("--assume ") + v.substr(0, v.find(' ')) + "=N";
    }
    f.severityCap = Severity::Note;
    f.severityCapReason = fmt::format(
        "a note, not a warning: its figures rest on guessed values, {}`, of runtime scalars that space the lanes' "
        "addresses but bound no index or loop it runs under (a stride, a pad, a window size), whose real values "
        "are as often 1 or 2 as large; give them ({}, or --launch-info from a verify run) and it is judged again",
        values, names);
  }
}

}  // namespace coalesce::report::detail
