#include "coalesce/report/finding.h"

#include <tuple>

#include "coalesce/report/rule.h"

namespace coalesce::report {

std::string_view toString(Severity s) {
  switch (s) {
    case Severity::Note: return "note";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "?";
}

std::optional<Severity> parseSeverity(std::string_view text) {
  for (Severity s : {Severity::Note, Severity::Warning, Severity::Error})
    if (toString(s) == text) return s;
  return std::nullopt;
}

bool findingBefore(const Finding& a, const Finding& b) {
  return std::tie(a.loc.file, a.loc.line, a.loc.column, a.rule, a.message) <
         std::tie(b.loc.file, b.loc.line, b.loc.column, b.rule, b.message);
}

std::vector<std::string> optionNames(const Rule& rule) {
  std::vector<std::string> names{"Severity"};
  if (rule.gate() == Gate::Efficiency) names.push_back("MinEfficiency");
  if (rule.gate() == Gate::ConflictDegree) {
    names.push_back("MaxConflictDegree");
    names.push_back("NoteUpToDegree");
  }
  if (rule.gate() == Gate::DivergentShare) names.push_back("MinDivergentShare");
  if (rule.gate() == Gate::Occupancy) names.push_back("MinOccupancy");
  if (rule.gate() == Gate::Reuse) names.push_back("MinReuse");
  return names;
}

}  // namespace coalesce::report
