// Everything the `coalesce-lint PATHS...` command line says, as plain values. Parsed by
// main.cpp (CLI11), run by lint_run.cpp.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "coalesce/analysis/analyze.h"
#include "coalesce/report/config.h"

namespace coalesce::cli {

// Exit codes (documented in README.md and docs/cli.md).
inline constexpr int kExitClean = 0;        // no finding at or above the gate
inline constexpr int kExitFindings = 1;     // findings at or above the gate
inline constexpr int kExitUsage = 2;        // usage or configuration error
inline constexpr int kExitNotAnalysed = 3;  // a file or kernel could not be analysed

struct LintOptions {
  analysis::AnalysisRequest request;
  std::string format = "text";  // text | json | sarif | html
  std::string outputFile;       // -o: empty for stdout
  std::optional<std::string> configFile;
  report::Options overrides;  // command-line values over the config files
  bool dumpConfig = false;
  std::string baselineFile;
  std::string writeBaselineFile;
  std::string explainTarget;
  int64_t explainWarp = 0;
  std::string sourceRoot;  // SARIF: paths are made relative to it
  std::string sort = "file";  // text: "file" (costliest first within a file) or "cost" (the whole run)
  bool quiet = false;      // no summary line, no progress
  bool listRules = false;
};

// Runs the whole lint and returns the exit code. Errors are one line on stderr.
int runLint(const LintOptions& options);

}  // namespace coalesce::cli
