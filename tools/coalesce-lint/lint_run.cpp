#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <set>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "coalesce/model/arch.h"
#include "coalesce/report/baseline.h"
#include "coalesce/report/explain.h"
#include "coalesce/report/filter.h"
#include "coalesce/report/html_writer.h"
#include "coalesce/report/json_writer.h"
#include "coalesce/report/rule_registry.h"
#include "coalesce/report/sarif_writer.h"
#include "coalesce/report/summary.h"
#include "coalesce/report/text_writer.h"
#include "diff_source.h"
#include "fix_apply.h"
#include "fix_check.h"
#include "lint_options.h"

namespace coalesce::cli {

int usageError(const std::string& message) {
  fmt::print(stderr, "coalesce-lint: error: {}\n", message);
  return kExitUsage;
}

void printFailures(const AnalysisResult& r) {
  for (const auto& f : r.files)
    if (f.status == Status::Failed) {
      // Some reasons already start with the path (a compilation database's): say it once.
      const std::string prefix = f.path + ": ";
      const bool named = f.error.compare(0, prefix.size(), prefix) == 0;
      fmt::print(stderr, "coalesce-lint: error: {}: {}\n", f.path, named ? f.error.substr(prefix.size()) : f.error);
    }
  for (const auto& k : r.kernels)
    if (k.status == Status::Failed)
      fmt::print(stderr, "coalesce-lint: error: {}:{}: kernel '{}' not analysed: {}\n", k.loc.file, k.loc.line, k.name,
                 k.reason);
}

namespace {

bool anyNotAnalysed(const AnalysisResult& r) {
  for (const auto& f : r.files)
    if (f.status == Status::Failed) return true;
  for (const auto& k : r.kernels)
    if (k.status == Status::Failed) return true;
  return false;
}

std::string canonicalPath(const std::string& path) {
  std::error_code ec;
  const auto p = std::filesystem::weakly_canonical(path, ec);
  return ec ? path : p.string();
}

// Nothing is skipped silently: an analysed file with errors outside its kernels (a missing
// header, broken host code) gets a warning, and a file named on the command line whose
// translation unit has no kernel gets a note (a unity build's main file that includes its
// kernels' file, Rodinia's srad.cu, has them: KernelRecord::unit). One line each; neither
// changes the exit code.
void printFileNotes(const AnalysisResult& r, const std::vector<std::string>& inputs) {
  std::set<std::string> named, withKernels;
  for (const auto& in : inputs) {
    std::error_code ec;
    if (!std::filesystem::is_directory(in, ec)) named.insert(canonicalPath(in));
  }
  for (const auto& k : r.kernels) {
    withKernels.insert(canonicalPath(k.loc.file));
    if (!k.unit.empty()) withKernels.insert(canonicalPath(k.unit));
  }
  for (const auto& f : r.files) {
    if (f.status != Status::Analysed) continue;
    if (f.hostErrors > 0) {
      fmt::print(stderr, "coalesce-lint: warning: {}: {} error{} outside the analysed kernels{}{}\n", f.path,
                 f.hostErrors, f.hostErrors == 1 ? "" : "s", f.diagnostics.empty() ? "" : ", first: ",
                 f.diagnostics.empty() ? "" : f.diagnostics.front());
    } else if (named.count(canonicalPath(f.path)) && !withKernels.count(canonicalPath(f.path))) {
      fmt::print(stderr, "coalesce-lint: note: {}: no kernel (__global__ function) in this file or the files it includes\n", f.path);
    }
  }
}

int listRules() {
  for (const auto& rule : report::allRules()) {
    const auto d = report::describeRule(rule->id());
    fmt::print("{:<30} {}\n", rule->id(), d.shortDescription);
  }
  return kExitClean;
}

}  // namespace

// Everything after the analysis, shared by a lint run and `merge` (merge_command.cpp):
// rules, the one filter stage, the baseline written, the report, the summary, the exit code.
int reportAnalysis(const AnalysisResult& analysis, const LintOptions& options, const ReportContext& context) {
  report::ConfigProvider& configs = *context.configs;
  // Rules, then the one filter stage.
  report::FilterInputs inputs;
  inputs.configs = &configs;
  inputs.readSource = report::diskSourceReader();
  inputs.baseline = context.baseline;
  inputs.mainFiles = report::mainFilesOf(analysis);
  inputs.changedLines = context.changedLines;
  auto filtered = report::filterFindings(report::runRules(analysis, context.arch), inputs);
  if (!filtered) return usageError(filtered.error().message);

  // Fix-its (docs/fixes.md): only in runs that offer them, since each check parses a file again.
  if (options.checksFixes() && context.request)
    checkFixes(filtered->findings, analysis, *context.request, context.arch, inputs.readSource);

  if (!options.writeBaselineFile.empty()) {
    if (auto err = report::Baseline::fromFindings(filtered->findings).save(options.writeBaselineFile))
      return usageError(err->message);
  }

  report::Report rep;
  rep.analysis = &analysis;
  rep.findings = filtered->findings;
  rep.stats = filtered->stats;
  rep.arch = context.arch.name();
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - context.started).count();
  rep.cachedFiles = context.cachedFiles;
  rep.filesLeftOutByDiff = context.filesLeftOutByDiff;
  rep.diffAware = context.changedLines != nullptr;

  std::ostringstream out;
  if (options.format == "json") {
    report::writeJson(out, rep);
  } else if (options.format == "sarif") {
    report::SarifOptions so;
    so.sourceRoot = options.sourceRoot;
    report::writeSarif(out, rep, so);
  } else if (options.format == "html") {
    report::writeHtml(out, rep);
  } else {
    report::TextOptions to;
    to.showSummary = false;
    to.sortByCost = options.sort == "cost";
    report::writeText(out, rep, to);
  }
  if (options.outputFile.empty()) {
    std::cout << out.str();
    std::cout.flush();
  } else {
    std::ofstream file(options.outputFile, std::ios::binary);
    if (!(file << out.str())) return usageError(options.outputFile + ": cannot write the report");
  }
  if (!options.quiet) {
    fmt::print(stderr, "{}\n", report::summaryLine(rep));
    for (const std::string& line : report::mostExpensiveLines(rep)) fmt::print(stderr, "{}\n", line);
  }

  // Only here does the tool write into the user's tree, and only when asked to.
  bool fixNotWritten = false;
  if (!options.exportFixesFile.empty()) {
    const std::vector<std::string>& in = options.request.inputs;
    std::error_code ec;  // clang-tidy names the one file it ran on; a folder or several files: none
    const std::string mainFile =
        in.size() == 1 && std::filesystem::is_regular_file(in.front(), ec) ? in.front() : std::string();
    if (std::string err = exportFixes(options.exportFixesFile, mainFile, rep.findings); !err.empty()) {
      fmt::print(stderr, "coalesce-lint: error: {}\n", err);
      fixNotWritten = true;
    }
  }
  if (options.fix) {
    const FixApplyOutcome applied = applyFixesInPlace(rep.findings);
    for (const std::string& err : applied.errors) fmt::print(stderr, "coalesce-lint: error: {}\n", err);
    fixNotWritten |= !applied.errors.empty();
    if (!options.quiet || applied.conflicts)
      fmt::print(stderr, "coalesce-lint: applied {} fix{} to {} file{}{}\n", applied.edits,
                 applied.edits == 1 ? "" : "es", applied.files, applied.files == 1 ? "" : "s",
                 applied.conflicts ? fmt::format("; {} overlapping edit{} left out", applied.conflicts,
                                                 applied.conflicts == 1 ? "" : "s")
                                   : std::string());
  }

  if (anyNotAnalysed(analysis)) return kExitNotAnalysed;
  if (fixNotWritten) return kExitFixNotWritten;
  for (const auto& f : rep.findings)
    if (f.severity != report::Severity::Note) return kExitFindings;
  return kExitClean;
}

std::optional<model::Dim3> parseBlockDim(std::string text) {
  for (char& c : text)
    if (c == ',') c = 'x';
  model::Dim3 d;
  int64_t* dims[3] = {&d.x, &d.y, &d.z};
  std::istringstream in(text);
  std::string part;
  int i = 0;
  while (std::getline(in, part, 'x')) {
    if (i >= 3) return std::nullopt;
    try {
      size_t used = 0;
      *dims[i] = std::stoll(part, &used);
      if (used != part.size() || *dims[i] <= 0) return std::nullopt;
    } catch (const std::exception&) {
      return std::nullopt;
    }
    ++i;
  }
  if (i == 0 || d.volume() > 1024) return std::nullopt;
  return d;
}

bool parseAssume(const std::string& text, std::map<std::string, int64_t>& values) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  try {
    size_t used = 0;
    const int64_t v = std::stoll(text.substr(eq + 1), &used);
    if (used != text.size() - eq - 1) return false;
    values[text.substr(0, eq)] = v;
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

// --cache-dir, --no-cache and the default folder (docs/cache.md).
std::string cacheDirFor(const LintOptions& options) {
  if (options.noCache) return {};
  return options.cacheDir.empty() ? analysis::defaultCacheDir() : options.cacheDir;
}

int runLint(const LintOptions& options) {
  if (options.listRules) return listRules();
  const auto started = std::chrono::steady_clock::now();
  const auto arch = model::parseArch(options.request.gpuArch);
  if (!arch) return usageError("unknown GPU architecture '" + options.request.gpuArch + "' (sm_70 to sm_90)");

  report::ConfigProvider configs(options.configFile, options.overrides);
  if (options.dumpConfig) {
    const std::string anchor = options.request.inputs.empty() ? "." : options.request.inputs.front();
    auto config = configs.configFor(anchor);
    if (!config) return usageError(config.error().message);
    std::cout << report::dumpConfig(**config);
    return kExitClean;
  }
  analysis::AnalysisRequest request = options.request;
  // --explain FILE:LINE alone analyses that file.
  if (request.inputs.empty() && request.buildDir.empty() && !options.explainTarget.empty())
    if (auto target = report::parseExplainTarget(options.explainTarget)) request.inputs.push_back(target->file);
  if (request.inputs.empty() && request.buildDir.empty())
    return usageError("no input: give .cu files or directories, or -p BUILD_DIR");

  std::optional<report::Baseline> baseline;
  if (!options.baselineFile.empty()) {
    auto loaded = report::Baseline::load(options.baselineFile);
    if (!loaded) return usageError(loaded.error().message);
    baseline = std::move(*loaded);
  }
  std::optional<report::ExplainTarget> explain;
  if (!options.explainTarget.empty()) {
    auto parsed = report::parseExplainTarget(options.explainTarget);
    if (!parsed) return usageError(parsed.error().message);
    explain = *parsed;
  }
  // Diff-aware gating (docs/ci.md): only the files the diff reaches are analysed.
  std::optional<report::ChangedLines> changed;
  if (!options.changedLinesFile.empty() && !options.diffBase.empty())
    return usageError("--changed-lines and --diff-base: give one of them");
  if (!options.changedLinesFile.empty() || !options.diffBase.empty()) {
    std::string error;
    changed = loadChangedLines(options, error);
    if (!changed) return usageError(error);
    request.onlyFilesReaching = changed->files();
  }
  request.cacheDir = cacheDirFor(options);

  // Analyse. Progress goes to a terminal only, so logs and CI stay clean.
  if (!options.quiet && isatty(STDERR_FILENO))
    request.progress = [](const std::string& file, size_t done, size_t total) {
      fmt::print(stderr, "\r[{}/{}] {}\x1b[K", done, total, file);
      if (done == total) fmt::print(stderr, "\r\x1b[K");
    };
  analysis::AnalysisStats stats;
  const AnalysisResult analysis = analysis::analyze(request, &stats);
  if (!stats.cacheProblem.empty())
    fmt::print(stderr, "coalesce-lint: warning: {}; analysing without it (--no-cache silences this)\n",
               stats.cacheProblem);
  printFailures(analysis);
  printFileNotes(analysis, options.request.inputs);

  if (explain) {
    const auto sites = report::accessesAt(analysis, *explain);
    const auto barriers = report::barriersAt(analysis, *explain);
    const auto branches = report::branchesAt(analysis, *explain);
    if (sites.empty() && barriers.empty() && branches.empty()) {
      fmt::print(stderr, "coalesce-lint: error: {}: no global or shared access, branch or barrier found at line {}\n",
                 explain->file, explain->line);
      return kExitUsage;
    }
    report::ExplainOptions eo;
    eo.warp = options.explainWarp;
    for (const AccessSite* s : sites) std::cout << report::explainAccess(*s, *arch, eo) << "\n";
    for (const BarrierSite* b : barriers) std::cout << report::explainBarrier(*b) << "\n";
    for (const BranchSite* b : branches) std::cout << report::explainBranch(*b) << "\n";
    return kExitClean;
  }

  ReportContext context{*arch};
  context.configs = &configs;
  context.baseline = baseline ? &*baseline : nullptr;
  context.changedLines = changed ? &*changed : nullptr;
  context.started = started;
  context.cachedFiles = stats.cacheHits;
  context.filesLeftOutByDiff = stats.notReachingDiff;
  context.request = &request;
  return reportAnalysis(analysis, options, context);
}

}  // namespace coalesce::cli
