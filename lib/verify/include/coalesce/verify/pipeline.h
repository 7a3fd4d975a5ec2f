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

#include "coalesce/verify/measurements.h"
#include "coalesce/verify/predictions.h"

namespace coalesce::verify {

// What the analyzer is asked to predict on: files, or a compilation database's sources, and
// optionally launches the collector recorded (their block, grid and arguments replace what the
// analysis finds or guesses, as `coalesce-lint --launch-info` does).
struct PredictInput {
  std::vector<std::string> files;      // .cu/.cuh files or folders
  std::string buildDir;                // folder holding compile_commands.json (-p), or empty
  std::string arch;                    // sm_XX to analyse for, or empty for the analyzer's default
  std::vector<LaunchConfig> launches;  // recorded launches to predict with, or empty
  std::string jsonPath;                // when set, the analyzer's JSON is also written there (--keep)
};

// Produces predictions when no predictions file is given (the analyzer, in the full build;
// tools/coalesce-lint/main.cpp). Returns nullopt and sets `error` (one line) on failure.
using PredictFunction = std::function<std::optional<Predictions>(const PredictInput& input, std::string& error)>;

struct VerifyOptions {
  std::string predictions;                    // predictions JSON; else `predict` is asked
  // --analyze: predict now with `predict`, on `sources` or the database in `buildDir` (or on
  // `files` when neither is given). Refused in the verifier-only build (no `predict`).
  bool analyze = false;
  std::vector<std::string> sources;
  std::string buildDir;
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
  // each distinct configuration), "first" (the first of each kernel) or "all"; kernel regex,
  // per-kernel skip and cap, configurations per kernel (0: every one).
  std::string sample = "config";
  std::string kernelRegex;
  uint64_t launchSkip = 0, launchCount = 0, maxConfigs = 0;
  // How far a measured figure may be from the predicted one and still match, relative
  // (CompareOptions::relativeTolerance): 0.1 % by default; issue #13 states its real-code
  // target at 5 %.
  double relativeTolerance = 1e-3;
  PredictFunction predict;
};

// Runs the whole pipeline. Writes the report to `output` or stdout, and every error as
// one line "coalesce-lint verify: error: ..." on stderr. Returns the exit status:
// kExitOk, kExitMismatch, kExitError or kExitIncomplete (coalesce/verify/compare.h).
int runVerify(const VerifyOptions& options);

}  // namespace coalesce::verify
