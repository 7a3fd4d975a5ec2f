// Validation shared by the YAML parser (which knows positions) and Config::resolve
// (which also sees command-line values): each returns an error message, or "".
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace coalesce::report::detail {

inline const std::vector<std::string>& topLevelKeys() {
  static const std::vector<std::string> keys{"Checks",      "WarningsAsErrors", "MinEfficiency", "MaxConflictDegree", "MinCostShare",
                                             "MinProgramShare", "MinWastePerRun", "HeaderFilter", "SystemHeaders",    "Exclude",       "CheckOptions"};
  return keys;
}

// "<rule-id>.<Option>" = value.
std::string checkOptionError(std::string_view key, std::string_view value);
// A glob list naming rules: a name without wildcards must be a known rule.
std::string ruleListError(std::string_view key, std::string_view list);
std::string minEfficiencyError(double value);
std::string minCostShareError(double value);
std::string shareError(std::string_view key, double value);
// A time in microseconds: 0 or more.
std::string microsecondsError(std::string_view key, double value);
std::string maxConflictDegreeError(double value);
std::string noteUpToDegreeError(double value);
std::string minDivergentShareError(double value);
std::string minOccupancyError(double value);
std::string minReuseError(double value);
std::string headerFilterError(std::string_view regex);

}  // namespace coalesce::report::detail
