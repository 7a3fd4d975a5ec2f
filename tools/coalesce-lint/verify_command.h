// `coalesce-lint verify`: confirms predictions against the GPU's per-instruction
// counters. Registered on the main CLI by addVerifyCommand().
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "coalesce/verify/predictions.h"

namespace coalesce::cli {

// Produces predictions for the given .cu files when --predictions is not given (the
// analyzer, in the full build). Returns nullopt and sets `error` (one line) on failure.
using PredictFunction =
    std::function<std::optional<verify::Predictions>(const std::vector<std::string>& files, std::string& error)>;

// Adds the `verify` subcommand to `app`. When it runs, `exitCode` receives its exit
// status: 0 all confirmed, 1 a mismatch, 2 could not verify (no GPU, no CUPTI, no
// permission, a build failure, a crash, a time-out), 3 predicted lines that map to no
// instruction (unless --allow-not-found). Without `predict`, --predictions is required.
CLI::App* addVerifyCommand(CLI::App& app, int& exitCode, PredictFunction predict = {});

}  // namespace coalesce::cli
