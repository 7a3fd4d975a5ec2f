// --dump-config: every effective value, in the syntax parseConfig reads back.
#include <fmt/format.h>

#include "coalesce/report/config.h"
#include "coalesce/report/rule_registry.h"

namespace coalesce::report {

namespace {
std::string quoted(std::string_view s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}
}  // namespace

std::string dumpConfig(const Config& config) {
  const Options& v = config.values();
  std::string out = fmt::format("# coalesce-lint effective settings ({})\n", config.source());
  out += fmt::format("Checks: {}\n", quoted(*v.checks));
  out += fmt::format("WarningsAsErrors: {}\n", quoted(*v.warningsAsErrors));
  out += fmt::format("MinEfficiency: {}\n", *v.minEfficiency);
  out += fmt::format("MaxConflictDegree: {}\n", *v.maxConflictDegree);
  out += fmt::format("HeaderFilter: {}\n", quoted(*v.headerFilter));
  out += fmt::format("SystemHeaders: {}\n", *v.systemHeaders ? "true" : "false");
  out += v.exclude->empty() ? "Exclude: []\n" : "Exclude:\n";
  for (const std::string& glob : *v.exclude) out += fmt::format("  - {}\n", quoted(glob));
  // Every option of every rule, resolved, so that the dump read back is the same Config
  // whatever defaults a later version has.
  out += "CheckOptions:\n";
  for (const auto& rule : allRules()) {
    const std::string& id = rule->id();
    for (const std::string& option : optionNames(*rule)) {
      std::string value;
      if (option == "Severity") value = std::string(toString(config.severity(id)));
      if (option == "MinEfficiency") value = fmt::format("{}", config.minEfficiency(id));
      if (option == "MaxConflictDegree") value = fmt::format("{}", config.maxConflictDegree(id));
      if (option == "MinDivergentShare") value = fmt::format("{}", config.minDivergentShare(id));
      out += fmt::format("  {}.{}: {}\n", id, option, value);
    }
  }
  return out;
}

}  // namespace coalesce::report
