// The verify pipeline: build each .cu file with nvcc -lineinfo (or take a program as
// given), run it under the CUPTI injection library (inject/inject.cpp), read back its
// measurements and SASS listings, merge them, compare with the predictions and write
// the report. Or, offline, the same comparison on recorded measurements.
// tools/coalesce-lint/verify_command.cpp parses the options and calls runVerify().
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "coalesce/verify/predictions.h"

namespace coalesce::verify {

// Produces predictions for the given .cu files when no predictions file is given (the
// analyzer, in the full build). Returns nullopt and sets `error` (one line) on failure.
using PredictFunction =
    std::function<std::optional<Predictions>(const std::vector<std::string>& files, std::string& error)>;

struct VerifyOptions {
  std::string predictions;                    // predictions JSON; else `predict` is asked
  std::vector<std::string> files;             // .cu files to build and run
  std::vector<std::string> command;           // an unmodified program and its arguments
  std::vector<std::string> measurementFiles;  // compare recorded measurements instead of running
  std::vector<std::string> sassFiles;         // listings for recorded measurements (opcodes, inline info)
  std::string format = "text";                // "text", "json" or "html"
  std::string output;                         // report file; stdout when empty
  double timeout = 120;                       // seconds each program may run
  std::string nvcc;                           // nvcc to build `files` with; else looked up
  std::string arch;                           // nvcc -arch; else the local GPU's
  std::vector<std::string> nvccFlags;
  std::string inject;  // the injection library given by the user; else searched (below)
  // Where the caller expects libcoalesce_verify_inject.so when `inject` is empty and
  // $COALESCE_VERIFY_INJECT is unset, in order: next to the binary, in the build tree.
  std::vector<std::string> injectSearchPaths;
  std::string keep;  // keep binaries, measurements and listings in this folder
  bool allowNotFound = false;
  // Which launches are instrumented (coalesce/verify/launch_sampler.h): "config" (the first of
  // each distinct configuration) or "all"; kernel regex, per-kernel skip and cap, configurations.
  std::string sample = "config";
  std::string kernelRegex;
  uint64_t launchSkip = 0, launchCount = 0, maxConfigs = 16;
  PredictFunction predict;
};

// Runs the whole pipeline. Writes the report to `output` or stdout, and every error as
// one line "coalesce-lint verify: error: ..." on stderr. Returns the exit status:
// kExitOk, kExitMismatch, kExitError or kExitIncomplete (coalesce/verify/compare.h).
int runVerify(const VerifyOptions& options);

}  // namespace coalesce::verify
