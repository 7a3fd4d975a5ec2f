// Inside the user's build (docs/ci.md): `coalesce-lint launch` is a compiler launcher
// (CMAKE_CUDA_COMPILER_LAUNCHER, like ccache). It analyses the translation unit of one
// compile command with that command's own flags, writes the records next to the object
// (OBJECT.coalesce-lint.json), then runs the real compiler; `coalesce-lint merge` combines
// those files into one report with the usual gates. The build tool decides what to
// rebuild and how many at once; an up-to-date object keeps its result file.
#pragma once

#include <string>
#include <vector>

#include "lint_options.h"

namespace coalesce::cli {

inline constexpr const char* kResultSuffix = ".coalesce-lint.json";
inline constexpr const char* kResultFormat = "coalesce-lint-result/1";

// `coalesce-lint launch [OPTIONS] [--] COMPILER ARGS...` (args: what follows "launch").
// Returns the compiler's exit status, 2 for a usage error, 127 when the compiler cannot be
// started. The analysis never fails the build: a file it cannot analyse is recorded as
// such in its result (merge reports it, exit 3).
int runLaunch(const std::vector<std::string>& args);

// `coalesce-lint merge [OPTIONS] RESULTS...`: result files, or folders searched for
// *.coalesce-lint.json; the report and exit code of a lint run over the same files.
int runMerge(const LintOptions& options, const std::vector<std::string>& results);

}  // namespace coalesce::cli
