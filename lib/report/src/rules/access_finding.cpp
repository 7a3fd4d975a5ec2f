#include "access_finding.h"

#include "../notes.h"

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
  return f;
}

}  // namespace coalesce::report::detail
