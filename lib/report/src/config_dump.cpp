// --dump-config: every effective value, in the syntax parseConfig reads back.
#include <fmt/format.h>

#include <algorithm>

#include "coalesce/report/config.h"
#include "coalesce/report/rule_registry.h"

namespace coalesce::report {

namespace {
std::string quoted(std::string_view s) {
  auto control = [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; };
  auto printableAscii = [](char c) { return c >= 0x20 && c < 0x7f; };
  if (std::all_of(s.begin(), s.end(), printableAscii)) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
    return out + "'";
  }
  // A line break or other control character (a folded `Checks: >` block, a tab), or a byte
  // that is not ASCII: YAML folds or refuses them inside single quotes, so a double-quoted
  // scalar, control characters escaped, which reads back byte for byte (found by fuzzing,
  // test/fuzz/fuzz_config.cpp).
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += {'\\', c};
    else if (control(c)) out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
    else out += c;
  }
  return out + "\"";
}
}  // namespace

std::string dumpConfig(const Config& config) {
  const Options& v = config.values();
  std::string out = fmt::format("# coalesce-lint effective settings ({})\n", config.source());
  out += fmt::format("Checks: {}\n", quoted(*v.checks));
  out += fmt::format("WarningsAsErrors: {}\n", quoted(*v.warningsAsErrors));
  out += fmt::format("MinEfficiency: {}\n", *v.minEfficiency);
  out += fmt::format("MaxConflictDegree: {}\n", *v.maxConflictDegree);
  out += fmt::format("MinCostShare: {}\n", *v.minCostShare);
  out += fmt::format("MinProgramShare: {}\n", *v.minProgramShare);
  out += fmt::format("MinWastePerRun: {}\n", *v.minWastePerRun);
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
      if (option == "NoteUpToDegree") value = fmt::format("{}", config.noteUpToDegree(id));
      if (option == "MinDivergentShare") value = fmt::format("{}", config.minDivergentShare(id));
      if (option == "MinOccupancy") value = fmt::format("{}", config.minOccupancy(id));
      if (option == "MinReuse") value = fmt::format("{}", config.minReuse(id));
      out += fmt::format("  {}.{}: {}\n", id, option, value);
    }
  }
  return out;
}

}  // namespace coalesce::report
