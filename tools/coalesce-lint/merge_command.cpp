// `coalesce-lint merge`: the launcher's per-object results combined into one report
// (launch_command.h; docs/ci.md).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "coalesce/analysis/result_file.h"
#include "coalesce/analysis/worker.h"
#include "coalesce/report/config.h"
#include "launch_command.h"
#include "diff_source.h"

namespace coalesce::cli {

namespace fs = std::filesystem;

namespace {

bool isResultFile(const fs::path& p) {
  const std::string name = p.filename().string();
  const std::string suffix = kResultSuffix;
  return name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Files as given; folders searched for *.coalesce-lint.json (sorted, so the report does not
// depend on the order the file system lists them in).
std::vector<std::string> resultFiles(const std::vector<std::string>& paths, std::string& error) {
  std::vector<std::string> out;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<std::string> found;
      for (fs::recursive_directory_iterator it(p, fs::directory_options::skip_permission_denied, ec), end;
           !ec && it != end; it.increment(ec))
        if (it->is_regular_file() && isResultFile(it->path())) found.push_back(it->path().string());
      std::sort(found.begin(), found.end());
      out.insert(out.end(), found.begin(), found.end());
    } else if (fs::exists(p, ec)) {
      out.push_back(p);
    } else {
      error = p + ": no such file or directory";
      return {};
    }
  }
  return out;
}

// Appends `part` to `all`; ids are renumbered by the caller once everything is in. The
// accesses go through appendAccesses (records.h), which moves their group ids with them: the
// merged report of ElasticFusion's reduce.cu lost its groups without (session 29).
void append(AnalysisResult& all, AnalysisResult part) {
  appendAccesses(all.accesses, part.accesses);
  auto move = [](auto& to, auto& from) { to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end())); };
  move(all.files, part.files);
  move(all.kernels, part.kernels);
  move(all.branches, part.branches);
  move(all.barriers, part.barriers);
  move(all.pointerParams, part.pointerParams);
}

}  // namespace

int runMerge(const LintOptions& options, const std::vector<std::string>& paths) {
  const auto started = std::chrono::steady_clock::now();
  if (paths.empty()) return usageError("merge: no result files or folders given");
  std::string error;
  const std::vector<std::string> files = resultFiles(paths, error);
  if (!error.empty()) return usageError("merge: " + error);
  if (files.empty()) return usageError("merge: no " + std::string(kResultSuffix) + " file under the paths given");

  AnalysisResult all;
  std::string arch;
  // One source compiled twice with the same flags (two targets) gives the same records
  // twice: counted once.
  std::set<std::string> seen;
  for (const std::string& f : files) {
    auto result = analysis::readResultFile(f, error);
    if (!result) return usageError(error);
    if (arch.empty()) arch = result->arch;
    if (result->arch != arch)
      return usageError("merge: " + f + ": analysed for " + result->arch + ", the others for " + arch);
    if (!seen.insert(analysis::recordsToJson(result->records)).second) continue;
    append(all, std::move(result->records));
  }
  std::stable_sort(all.files.begin(), all.files.end(),
                   [](const FileRecord& a, const FileRecord& b) { return a.path < b.path; });
  for (size_t i = 0; i < all.accesses.size(); ++i) all.accesses[i].id = static_cast<int>(i);
  for (size_t i = 0; i < all.branches.size(); ++i) all.branches[i].id = static_cast<int>(i);
  for (size_t i = 0; i < all.barriers.size(); ++i) all.barriers[i].id = static_cast<int>(i);

  const auto parsedArch = model::parseArch(arch);
  if (!parsedArch) return usageError("merge: " + files.front() + ": unknown architecture '" + arch + "'");
  report::ConfigProvider configs(options.configFile, options.overrides);
  std::optional<report::Baseline> baseline;
  if (!options.baselineFile.empty()) {
    auto loaded = report::Baseline::load(options.baselineFile);
    if (!loaded) return usageError(loaded.error().message);
    baseline = std::move(*loaded);
  }
  std::optional<report::ChangedLines> changed;
  if (!options.changedLinesFile.empty() && !options.diffBase.empty())
    return usageError("--changed-lines and --diff-base: give one of them");
  if (!options.changedLinesFile.empty() || !options.diffBase.empty()) {
    changed = loadChangedLines(options, error);
    if (!changed) return usageError(error);
  }
  printFailures(all);

  ReportContext context{*parsedArch};
  context.configs = &configs;
  context.baseline = baseline ? &*baseline : nullptr;
  context.changedLines = changed ? &*changed : nullptr;
  context.started = started;
  return reportAnalysis(all, options, context);
}

}  // namespace coalesce::cli
