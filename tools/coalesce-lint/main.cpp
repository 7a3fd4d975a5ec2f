// coalesce-lint: the command line. Thin: parses options with CLI11 and hands them to
// runLint (lint_run.cpp) or to the verify subcommand (verify_command.cpp).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "coalesce/analysis/analyze.h"
#include "coalesce/report/json_writer.h"
#include "coalesce/report/report.h"
#include "coalesce/verify/predictions.h"
#include "launch_command.h"
#include "launch_info.h"
#include "lint_options.h"
#include "verify_command.h"

using namespace coalesce;

namespace {

// The analyzer as the verifier's source of predictions: the JSON it would print,
// read back through the verifier's own reader, so both sides share one schema.
// `verify --analyze` and `verify FILES` call it; with recorded launches it predicts each kernel
// with the launch as it ran (as --launch-info does), for the per-configuration comparison.
std::optional<verify::Predictions> predict(const verify::PredictInput& input, std::string& error) {
  analysis::AnalysisRequest request;
  request.inputs = input.files;
  request.buildDir = input.buildDir;
  if (!input.arch.empty()) request.gpuArch = input.arch;
  request.recordedLaunches = cli::recordedLaunches(input.launches, "this run");
  const AnalysisResult analysis = analysis::analyze(request);
  for (const auto& f : analysis.files)
    if (f.status == Status::Failed) {
      error = f.path + ": " + f.error;
      return std::nullopt;
    }
  report::Report rep;
  rep.analysis = &analysis;
  std::ostringstream json;
  report::writeJson(json, rep);
  if (!input.jsonPath.empty()) {
    std::ofstream out(input.jsonPath);
    if (!(out << json.str())) {
      error = "cannot write " + input.jsonPath;
      return std::nullopt;
    }
  }
  try {
    return verify::predictionsFromJson(json.str());
  } catch (const std::exception& e) {
    error = e.what();
    return std::nullopt;
  }
}

// The options of the report stage, shared by a lint run and `merge`: output, gates,
// baseline, diff-aware gating.
struct GateOptions {
  std::string checks, warningsAsErrors, headerFilter;
  std::optional<double> minEfficiency, maxDegree, minCostShare, minProgramShare, minWastePerRun;
  std::vector<std::string> excludes;

  void addTo(CLI::App& app, cli::LintOptions& o) {
    app.add_option("--format", o.format, "output format")->check(CLI::IsMember({"text", "json", "sarif", "html"}));
    app.add_option("-o,--output", o.outputFile, "write the report to FILE instead of stdout");
    app.add_option("--changed-lines", o.changedLinesFile,
                   "report only findings on the lines a unified diff (FILE, '-' for stdin) adds or changes, and "
                   "analyse only the files it touches or that include a file it touches");
    app.add_option("--diff-base", o.diffBase,
                   "as --changed-lines, with the diff of the working tree against git revision REF (git diff -U0 "
                   "REF)");
    app.add_option("--config", o.configFile, "settings file to use instead of .coalesce-lint.yaml lookup");
    app.add_option("--checks", checks, "glob list of enabled rules, e.g. '*,-aos-field-access'");
    app.add_option("--warnings-as-errors", warningsAsErrors, "glob list of rules whose findings are errors");
    app.add_option("--min-efficiency", minEfficiency, "report global accesses with eta below this (0..1)")
        ->check(CLI::Range(0.0, 1.0));
    app.add_option("--max-conflict-degree", maxDegree, "report shared accesses with a conflict degree above this")
        ->check(CLI::Validator(
            [](std::string& v) -> std::string {
              try {
                size_t used = 0;
                if (std::stod(v, &used) > 0 && used == v.size()) return {};
              } catch (const std::exception&) {
              }
              return "must be a number above 0, not '" + v + "'";
            },
            "NUMBER > 0"));
    app.add_option("--min-cost-share", minCostShare,
                   "a finding wasting less than this share of its kernel's traffic is a note, not a warning (0..1; "
                   "default 0.05)")
        ->check(CLI::Range(0.0, 1.0));
    app.add_option("--min-program-share", minProgramShare,
                   "a finding wasting less than this share of the memory time of the kernels its file launches, "
                   "each weighed by its launches per run, is a note, not a warning (0..1; default 0.02)")
        ->check(CLI::Range(0.0, 1.0));
    app.add_option("--min-waste-per-run", minWastePerRun,
                   "a finding whose grid, loop trips and launches per run the code fixes, and that wastes less "
                   "than this many microseconds of memory time per run of the program, is a note, not a warning "
                   "(default: one kernel launch's cost on the H200; 0 turns the floor off)")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--sort", o.sort, "text output order: 'file' (by file, costliest first within each) or 'cost' "
                                     "(the whole run, costliest first)")
        ->check(CLI::IsMember({"file", "cost"}));
    app.add_option("--header-filter", headerFilter, "regex of headers whose findings are shown");
    app.add_option("--exclude", excludes, "path glob whose findings are hidden (repeatable)")
        ->allow_extra_args(false);
    app.add_option("--baseline", o.baselineFile, "report only findings not in this baseline");
    app.add_option("--write-baseline", o.writeBaselineFile, "write the findings as a baseline to FILE");
    app.add_option("--source-root", o.sourceRoot, "SARIF: make paths relative to this folder");
    app.add_flag("-q,--quiet", o.quiet, "no summary line and no progress");
  }

  void applyTo(cli::LintOptions& o) const {
    if (!checks.empty()) o.overrides.checks = checks;
    if (!warningsAsErrors.empty()) o.overrides.warningsAsErrors = warningsAsErrors;
    if (!headerFilter.empty()) o.overrides.headerFilter = headerFilter;
    if (!excludes.empty()) o.overrides.exclude = excludes;
    o.overrides.minEfficiency = minEfficiency;
    o.overrides.maxConflictDegree = maxDegree;
    o.overrides.minCostShare = minCostShare;
    o.overrides.minProgramShare = minProgramShare;
    o.overrides.minWastePerRun = minWastePerRun;
  }
};

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  // The compiler launcher takes the compile command as it comes: not for CLI11's parser.
  if (!args.empty() && args.front() == "launch") return cli::runLaunch({args.begin() + 1, args.end()});

  CLI::App app{"coalesce-lint: predicts, from CUDA source, how each warp touches memory", "coalesce-lint"};
  app.set_version_flag("--version", "coalesce-lint " COALESCE_VERSION);
  app.footer(
      "Subcommands: verify (measure the predictions on a GPU), merge (combine the compiler launcher's results), "
      "launch (the compiler launcher: coalesce-lint launch [OPTIONS] -- COMPILER ARGS...). See docs/cli.md.");
  cli::LintOptions o;
  std::vector<std::string> extra, assumes, launchInfo;
  std::string block;
  GateOptions gates;

  app.add_option("paths", o.request.inputs, ".cu/.cuh files or directories (searched recursively)");
  app.add_option("-p,--build-dir", o.request.buildDir, "folder holding compile_commands.json");
  app.add_option("--arch", o.request.gpuArch, "GPU architecture (sm_70 to sm_90)")->capture_default_str();
  app.add_option("--cuda-path", o.request.cudaPath, "CUDA toolkit to parse with (default: $CUDA_PATH, /usr/local/cuda)");
  app.add_flag("--builtin-cuda", o.request.builtinCuda, "use the built-in CUDA headers even if a toolkit is installed");
  app.add_option("--block-dim", block, "block shape for kernels with no launch in their file, e.g. 32x8");
  app.add_option("--launch-info", launchInfo,
                 "measurements JSON written by `coalesce-lint verify` (--keep DIR/annotated_N.json): the launches "
                 "it recorded (block, grid, arguments) replace what the analysis finds or guesses (repeatable)")
      ->allow_extra_args(false);
  app.add_option("--assume", assumes, "NAME=VALUE for a runtime scalar the analysis cannot see (repeatable)")
      ->allow_extra_args(false);
  app.add_option("-j,--jobs", o.request.jobs, "parallel files (default: one per core)");
  app.add_flag("!--no-header-cache", o.request.reuseHeaders,
               "parse the CUDA headers, and the leading #include lines files share, again for every file instead of once per set "
               "of flags (slower; same results)");
  app.add_flag("!--no-preamble-cache", o.request.keepPreambles,
               "with the result cache, do not keep a precompiled header of each file's leading #include block "
               "(slower on the file's next parse; same results)");
  app.add_option("--max-instantiations", o.request.maxInstantiations,
                 "instantiations of one kernel template analysed per file; past it, that many spread evenly over "
                 "them (0: all)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--file-timeout", o.request.fileTimeoutSeconds,
                 "seconds one file may take before it is reported as failed (0: no limit)")
      ->capture_default_str();
  app.add_flag("!--no-sibling-files", o.request.readSiblingFiles,
               "do not read the .c/.cpp/.cu files beside an input for the host values it leaves open (a "
               "wrapper's arguments, struct members set elsewhere in the program)");
  app.add_flag("!--full-parse", o.request.skipSystemHostBodies,
               "also parse the bodies of host functions in system headers, which the analysis never reads "
               "(slower; same results)");
  bool inProcess = false;
  app.add_flag("--in-process", inProcess,
               "analyse in this process, on threads, instead of one child process per file (a crash or "
               "hang in the frontend is then not contained and --file-timeout does not apply)");
  app.add_option("--cache-dir", o.cacheDir,
                 "keep results between runs in DIR (default: $COALESCE_LINT_CACHE_DIR, $XDG_CACHE_HOME/coalesce-lint "
                 "or ~/.cache/coalesce-lint)");
  app.add_flag("--no-cache", o.noCache, "neither read nor write the result cache");
  app.add_option("--cache-max-size", o.request.cacheMaxBytes,
                 "size the cache folder is kept under, least recently used results removed first (e.g. 512M, 2G)")
      ->transform(CLI::AsSizeValue(false))
      ->default_str("1G");
  gates.addTo(app, o);
  app.add_flag("--dump-config", o.dumpConfig, "print the effective settings as YAML and exit");
  app.add_option("--explain", o.explainTarget, "draw the lanes of the access at FILE:LINE[:COL]");
  app.add_option("--explain-warp", o.explainWarp, "which warp of the block --explain draws");
  app.add_flag("--list-rules", o.listRules, "list the rules and exit");
  app.add_flag("--fix", o.fix, "apply the fixes that pass their check (docs/fixes.md) to the files in place");
  app.add_option("--export-fixes", o.exportFixesFile,
                 "write the fixes that pass their check to FILE as clang-apply-replacements YAML");
  app.add_option("--extra-arg", extra, "extra compiler argument (also: everything after --)")
      ->allow_extra_args(false);
  app.allow_extras(false);

  int verifyExit = 0;
  CLI::App* verify = cli::addVerifyCommand(app, verifyExit, predict);

  // `merge RESULTS...`: the launcher's per-object results, one report (launch_command.h).
  CLI::App* merge = app.add_subcommand("merge", "combine the compiler launcher's per-object results into one report");
  cli::LintOptions mergeOptions;
  GateOptions mergeGates;
  std::vector<std::string> results;
  merge->add_option("results", results, "result files, or folders searched for *.coalesce-lint.json")->required();
  mergeGates.addTo(*merge, mergeOptions);

  // Everything after "--" goes to the compiler.
  auto dash = std::find(args.begin(), args.end(), "--");
  std::vector<std::string> compilerArgs;
  const bool verifyFirst = !args.empty() && args.front() == "verify";
  if (dash != args.end() && !verifyFirst) {
    compilerArgs.assign(dash + 1, args.end());
    args.erase(dash, args.end());
  }
  try {
    std::reverse(args.begin(), args.end());
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    // One line, like every other error (CLI11 would add "Run with --help" on a second).
    std::string what = e.what();
    std::replace(what.begin(), what.end(), '\n', ' ');
    fmt::print(stderr, "coalesce-lint: error: {} (see --help)\n", what);
    return cli::kExitUsage;
  }
  if (verify->parsed()) return verifyExit;
  if (merge->parsed()) {
    mergeGates.applyTo(mergeOptions);
    return cli::runMerge(mergeOptions, results);
  }

  o.request.isolateFiles = !inProcess;
  o.request.extraArgs = extra;
  o.request.extraArgs.insert(o.request.extraArgs.end(), compilerArgs.begin(), compilerArgs.end());
  if (!block.empty()) {
    o.request.blockDim = cli::parseBlockDim(block);
    if (!o.request.blockDim) {
      fmt::print(stderr, "coalesce-lint: error: --block-dim '{}': expected X[xY[xZ]] with at most 1024 threads\n", block);
      return cli::kExitUsage;
    }
  }
  for (const std::string& a : assumes)
    if (!cli::parseAssume(a, o.request.assumedValues)) {
      fmt::print(stderr, "coalesce-lint: error: --assume '{}': expected NAME=INTEGER\n", a);
      return cli::kExitUsage;
    }
  for (const std::string& file : launchInfo) {
    try {
      auto launches = cli::readLaunchInfo(file);
      o.request.recordedLaunches.insert(o.request.recordedLaunches.end(), launches.begin(), launches.end());
    } catch (const std::exception& e) {
      fmt::print(stderr, "coalesce-lint: error: {}\n", e.what());
      return cli::kExitUsage;
    }
  }
  gates.applyTo(o);
  return cli::runLint(o);
}
