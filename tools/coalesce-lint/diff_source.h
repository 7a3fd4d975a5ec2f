// Where diff-aware runs get their diff (docs/ci.md): the unified diff of --changed-lines
// FILE, or git's for --diff-base REF.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "coalesce/report/changed_lines.h"
#include "lint_options.h"

namespace coalesce::cli {

// A program's standard output, captured (its standard error's last line on failure).
struct CommandOutput {
  bool started = false;
  int exitCode = -1;   // 128 + the signal when one ended it
  std::string output;  // standard output
  std::string error;   // why it did not start, or its last line of standard error when it failed
};
CommandOutput runCapturing(const std::vector<std::string>& argv);

// The changed lines the options ask for; nullopt with `error` (one line) when the diff
// cannot be had or read.
std::optional<report::ChangedLines> loadChangedLines(const LintOptions& options, std::string& error);

}  // namespace coalesce::cli
