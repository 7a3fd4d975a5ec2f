#include "access_finding.h"

#include <fmt/format.h>

#include "../access_cause.h"
#include "../format.h"
#include "../notes.h"
#include "../what_if.h"

namespace coalesce::report::detail {

Finding accessFinding(const Rule& rule, const AccessSite& site, const model::Arch& arch, std::string message) {
  Finding f;
  f.rule = rule.id();
  f.severity = rule.defaultSeverity();
  f.loc = site.loc;
  f.message = std::move(message);
  f.notes = assumptionNotes(site, arch);
  f.lineText = site.lineText;
  f.access = site.id;
  // Each thread's next iterations use the rest of the sectors this one fetches: true of the
  // instruction, served by the caches over the loop (docs/findings.md, "Levels").
  if (servedAcrossIterations(site)) {
    f.severityCap = Severity::Note;
    f.severityCapReason = fmt::format(
        "a note, not a warning: counted once over each warp's next iterations (up to {} at a time), its sectors "
        "come to {} per request where {} carry the bytes: each thread uses the rest of a sector in its next "
        "iterations, which L1 serves for loads and L2 merges for stores",
        kIterationWindow, number(site.sectorsOverIterations), number(globalFigures(site)->idealSectors));
  }
  return f;
}

}  // namespace coalesce::report::detail
