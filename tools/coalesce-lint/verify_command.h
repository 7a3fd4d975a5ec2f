// `coalesce-lint verify`: confirms predictions against the GPU's per-instruction
// counters. Registered on the main CLI by addVerifyCommand(); the options are parsed
// here, the pipeline is lib/verify/src/pipeline.cpp.
#pragma once

#include <CLI/CLI.hpp>

#include "coalesce/verify/pipeline.h"

namespace coalesce::cli {

// Produces predictions for the given .cu files when --predictions is not given (the
// analyzer, in the full build); see coalesce/verify/pipeline.h.
using PredictFunction = verify::PredictFunction;

// Adds the `verify` subcommand to `app`. When it runs, `exitCode` receives its exit
// status: 0 all confirmed, 1 a mismatch, 2 could not verify (no GPU, no CUPTI, no
// permission, a build failure, a crash, a time-out), 3 predicted lines that map to no
// instruction (unless --allow-not-found). Without `predict`, --predictions is required.
CLI::App* addVerifyCommand(CLI::App& app, int& exitCode, PredictFunction predict = {});

}  // namespace coalesce::cli
