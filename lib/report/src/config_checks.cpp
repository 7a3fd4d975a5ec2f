#include "config_checks.h"

#include <algorithm>

#include <fmt/format.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Regex.h>

#include "coalesce/report/glob.h"
#include "coalesce/report/rule_registry.h"
#include "suggest.h"

namespace coalesce::report::detail {

std::string checkOptionError(std::string_view key, std::string_view value) {
  const size_t dot = key.rfind('.');
  if (dot == std::string_view::npos)
    return fmt::format("check option '{}' must be written '<rule-id>.<Option>'", key);
  const std::string_view ruleId = key.substr(0, dot), option = key.substr(dot + 1);
  const Rule* rule = findRule(ruleId);
  if (!rule) return fmt::format("unknown rule '{}' in option '{}'{}", ruleId, key, didYouMean(ruleId, ruleIds()));
  const std::vector<std::string> names = optionNames(*rule);
  if (std::find(names.begin(), names.end(), option) == names.end())
    return fmt::format("unknown option '{}' of rule '{}'{}", option, ruleId, didYouMean(option, names));
  if (option == "Severity") {
    if (!parseSeverity(value))
      return fmt::format("'{}' must be note, warning or error, not '{}'{}", key, value,
                         didYouMean(value, {"note", "warning", "error"}));
    return "";
  }
  double number = 0;
  if (llvm::StringRef(value.data(), value.size()).getAsDouble(number))
    return fmt::format("'{}' must be a number, not '{}'", key, value);
  const std::string range = option == "MinEfficiency"       ? minEfficiencyError(number)
                            : option == "MinDivergentShare" ? minDivergentShareError(number)
                            : option == "MinOccupancy"      ? minOccupancyError(number)
                            : option == "MinReuse"          ? minReuseError(number)
                            : option == "NoteUpToDegree"    ? noteUpToDegreeError(number)
                                                            : maxConflictDegreeError(number);
  return range.empty() ? "" : fmt::format("'{}': {}", key, range);
}

std::string ruleListError(std::string_view key, std::string_view list) {
  const GlobList globs(list);
  for (const GlobList::Glob& g : globs.globs()) {
    if (hasGlobChars(g.pattern) || findRule(g.pattern) || g.pattern == kNoLintRuleId) continue;
    return fmt::format("unknown rule '{}' in {}{}", g.pattern, key, didYouMean(g.pattern, ruleIds()));
  }
  return "";
}

std::string minEfficiencyError(double value) {
  return value >= 0 && value <= 1 ? "" : fmt::format("MinEfficiency must be between 0 and 1, not {}", value);
}

std::string shareError(std::string_view key, double value) {
  return value >= 0 && value <= 1 ? "" : fmt::format("{} must be between 0 and 1, not {}", key, value);
}

std::string microsecondsError(std::string_view key, double value) {
  return value >= 0 ? "" : fmt::format("{} must be a number of microseconds, 0 or more, not {}", key, value);
}

std::string minCostShareError(double value) {
  return value >= 0 && value <= 1 ? "" : fmt::format("MinCostShare must be between 0 and 1, not {}", value);
}

std::string minDivergentShareError(double value) {
  return value >= 0 && value <= 1 ? "" : fmt::format("MinDivergentShare must be between 0 and 1, not {}", value);
}

std::string minOccupancyError(double value) {
  return value >= 0 && value <= 1 ? "" : fmt::format("MinOccupancy must be between 0 and 1, not {}", value);
}

std::string minReuseError(double value) {
  return value >= 1 ? "" : fmt::format("MinReuse must be 1 or more, not {}", value);
}

std::string noteUpToDegreeError(double value) {
  return value >= 1 ? "" : fmt::format("NoteUpToDegree must be 1 or more, not {}", value);
}

std::string maxConflictDegreeError(double value) {
  return value >= 1 ? "" : fmt::format("MaxConflictDegree must be 1 or more, not {}", value);
}

std::string headerFilterError(std::string_view regex) {
  llvm::Regex re(llvm::StringRef(regex.data(), regex.size()));
  std::string error;
  return re.isValid(error) ? "" : fmt::format("HeaderFilter '{}' is not a valid regular expression: {}", regex, error);
}

}  // namespace coalesce::report::detail
