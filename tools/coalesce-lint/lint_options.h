// Everything the `coalesce-lint PATHS...` command line says, as plain values. Parsed by
// main.cpp (CLI11), run by lint_run.cpp.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <chrono>

#include "coalesce/analysis/analyze.h"
#include "coalesce/model/arch.h"
#include "coalesce/report/baseline.h"
#include "coalesce/report/changed_lines.h"
#include "coalesce/report/config.h"

namespace coalesce::cli {

// Exit codes (documented in README.md and docs/cli.md).
inline constexpr int kExitClean = 0;        // no finding at or above the gate
inline constexpr int kExitFindings = 1;     // findings at or above the gate
inline constexpr int kExitUsage = 2;        // usage or configuration error
inline constexpr int kExitNotAnalysed = 3;  // a file or kernel could not be analysed
inline constexpr int kExitFixNotWritten = 4;  // --fix or --export-fixes could not write a file

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
  // Result cache (docs/cache.md): request.cacheDir is set from these by runLint.
  std::string cacheDir;    // --cache-dir; empty: the default folder
  bool noCache = false;    // --no-cache
  // Diff-aware gating (docs/ci.md): at most one of them.
  std::string changedLinesFile;  // --changed-lines FILE ('-': stdin)
  std::string diffBase;          // --diff-base REF
  // Fix-its (docs/fixes.md): each is checked by analysing its edit first.
  bool fix = false;              // --fix: apply the checked fixes in place
  std::string exportFixesFile;   // --export-fixes FILE: clang-apply-replacements YAML
  bool checksFixes() const { return fix || !exportFixesFile.empty() || format == "sarif"; }
};

// Runs the whole lint and returns the exit code. Errors are one line on stderr.
int runLint(const LintOptions& options);

// What the report stage needs besides the records and the options.
struct ReportContext {
  model::Arch arch;
  report::ConfigProvider* configs = nullptr;             // required
  const report::Baseline* baseline = nullptr;            // --baseline
  const report::ChangedLines* changedLines = nullptr;    // diff-aware runs
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  size_t cachedFiles = 0;
  size_t filesLeftOutByDiff = 0;
  // The run's request, to analyse a fix's edit again (fix_check.h); null (merge): fixes are
  // not checked, so none is offered.
  const analysis::AnalysisRequest* request = nullptr;
};
// Rules, filter, report, summary line; returns the exit code (lint_run.cpp).
int reportAnalysis(const AnalysisResult& analysis, const LintOptions& options, const ReportContext& context);

// "32x8", "32,8,1", "256" -> a block shape of at most 1024 threads; nullopt otherwise.
std::optional<model::Dim3> parseBlockDim(std::string text);
// "NAME=INTEGER" into `values`; false when it is not that.
bool parseAssume(const std::string& text, std::map<std::string, int64_t>& values);

// One line on stderr per file and kernel that could not be analysed.
void printFailures(const AnalysisResult& analysis);

// One line "coalesce-lint: error: MESSAGE" on stderr; returns kExitUsage.
int usageError(const std::string& message);

// The result cache folder the options ask for: --no-cache, --cache-dir or the default.
std::string cacheDirFor(const LintOptions& options);

}  // namespace coalesce::cli
