#include "guessed_value_level.h"
#include "finding_site.h"

#include <string>

#include <fmt/format.h>

namespace coalesce::report::detail {

namespace {

// Scalars taken at some value, each "name = value" ("incy = 4096"), as the sentences below
// say them: `values` the list quoted, `names` the options that give them, `taken` "`incy`
// taken as 4096".
struct TakenValues {
  std::string values, names, taken;
};
TakenValues describeTaken(const std::vector<std::string>& scalars, const std::string& unknownValue) {
  TakenValues out;
  for (size_t i = 0; i < scalars.size(); ++i) {
    const std::string& v = scalars[i];
    const std::string name = v.substr(0, v.find(' '));
    const size_t eq = v.find(" = ");
    out.values += (out.values.empty() ? "`" : "`, `") + v;
    out.names += (out.names.empty() ? "" : " ") + std::string("--assume ") + name + "=N";
    out.taken += std::string(i == 0 ? "" : i + 1 == scalars.size() ? " and " : ", ") + "`" + name + "` taken as " +
                 (eq == std::string::npos ? unknownValue : v.substr(eq + 3));
  }
  return out;
}

}  // namespace

void capGuessedValueAccesses(std::vector<Finding>& findings, const AnalysisResult& analysis) {
  for (Finding& f : findings) {
    const AccessSite* found = accessSiteOf(f, analysis);
    if (!found) continue;
    const AccessSite& site = *found;
    if (!site.executed || (site.impossibleScalars.empty() && site.guessedScalars.empty())) continue;
    std::string reason;
    if (!site.impossibleScalars.empty()) {
      // Figures at a default no launch can have (AccessSite::impossibleScalars): the real value
      // is smaller, and the figure at it is not known (a bank conflict's degree follows the
      // stride's factors of two, a strided walk's sectors its length). Blind panel 33 judged
      // MNN's TopK places false: K taken as 4096 where the kernel's shared arrays, K per
      // thread, must fit in the block's shared memory (the host sizes the block from K).
      const TakenValues d = describeTaken(site.impossibleScalars, "a default");
      f.message +=
          fmt::format("; only under a value no launch can have: {}, where {}", d.taken, site.impossibleBecause);
      reason = fmt::format(
          "a note, not a warning: its figures rest on runtime values taken at a default that the hardware or the "
          "kernel's own arrays rule out "
          "({}), so the real values are smaller and the figures at them not known; give them ({}, or --launch-info "
          "from a verify run) and it is judged again",
          site.impossibleBecause, d.names);
    } else {
      const TakenValues d = describeTaken(site.guessedScalars, "a guess");
      // The headline's figure holds only at the guess: the lanes' spacing is the caller's, and
      // at a unit stride the same access can be coalesced. Said in the message itself, so that
      // it never states as a fact of the code what only the guess gives (blind panel 24 judged
      // four such notes false, MAGMA's `y[ind*incy]` whose callers pass 1: docs/precision.md).
      f.message += fmt::format("; only under a guess: {}, and the figure follows the value the caller passes", d.taken);
      reason = fmt::format(
          "a note, not a warning: its figures rest on guessed values, {}`, of runtime scalars that space the lanes' "
          "addresses but bound no index or loop it runs under (a stride, a pad, a window size), whose real values "
          "are as often 1 or 2 as large; give them ({}, or --launch-info from a verify run) and it is judged again",
          d.values, d.names);
    }
    // An earlier cap keeps its reason: one is enough to say why the finding is a note.
    if (f.severityCap && *f.severityCap <= Severity::Note) continue;
    f.severityCap = Severity::Note;
    f.severityCapReason = std::move(reason);
  }
}

}  // namespace coalesce::report::detail
