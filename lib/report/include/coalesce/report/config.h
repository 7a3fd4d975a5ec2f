// Settings: `.coalesce-lint.yaml` files found from a file's directory upward, an explicit
// file, command-line values, merged in that order over the defaults (clang-tidy's
// ClangTidyOptions and its `.clang-tidy` lookup). Per-rule options read as
// "<rule-id>.<Option>" in CheckOptions.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "coalesce/report/finding.h"
#include "coalesce/report/result.h"

namespace coalesce::report {

inline constexpr std::string_view kConfigFileName = ".coalesce-lint.yaml";

// Default of every conflict rule's NoteUpToDegree (Config::noteUpToDegree): a 2-way conflict
// costs one more shared-memory wavefront per request. Neither blind panel of public code
// judged most of them worth a change (docs/precision.md).
inline constexpr double kNoteUpToConflictDegree = 2.0;

// One layer of settings: a value that is not set leaves the layer below in force.
struct Options {
  std::optional<std::string> checks;            // glob list of enabled rules
  std::optional<std::string> warningsAsErrors;  // glob list of rules whose warnings are errors
  std::optional<double> minEfficiency;          // global: eta below this is reported
  std::optional<double> maxConflictDegree;      // global: degree above this is reported
  std::optional<double> minCostShare;           // global: a finding wasting less of its kernel's traffic is a note
  std::optional<double> minProgramShare;        // global: the same against its program's traffic (cost.cpp)
  std::optional<double> minWastePerRun;         // global: microseconds a finding must waste per run, where known
  std::optional<std::string> headerFilter;      // regex: headers whose findings are shown
  std::optional<bool> systemHeaders;            // show findings in system headers
  std::optional<std::vector<std::string>> exclude;  // path globs whose findings are hidden
  std::map<std::string, std::string> checkOptions;  // "<rule-id>.<Option>" -> value

  // Values set in `later` replace this layer's (lists are replaced, not appended;
  // check options are replaced key by key).
  void mergeFrom(const Options& later);
  bool empty() const;
};

// Parses a YAML configuration; `origin` names it in error messages. An unknown key,
// rule or option is an error that suggests the closest known name.
Result<Options> parseConfig(std::string_view yaml, const std::string& origin);
Result<Options> loadConfigFile(const std::string& path);

// The nearest `.coalesce-lint.yaml` in the directory of `path` (a file or a directory)
// or any parent directory.
std::optional<std::string> findConfigFile(const std::string& path);

struct CompiledPatterns;  // regex and glob lists, compiled once per configuration

// Settings resolved over the defaults, with the questions the filter stage asks.
class Config {
 public:
  // Every value set; `source` says where the layers came from (for --dump-config).
  static Result<Config> resolve(const Options& layered, std::string source);
  static Config defaults();

  bool enabled(std::string_view rule) const;
  bool warningAsError(std::string_view rule) const;
  Severity severity(std::string_view rule) const;
  double minEfficiency(std::string_view rule) const;
  double maxConflictDegree(std::string_view rule) const;
  // Shared-memory conflicts up to this degree are notes, not warnings (docs/findings.md,
  // "Levels"): one more wavefront per request, worth a change only where the kernel is bound
  // by shared-memory throughput. 1 restores them.
  double noteUpToDegree(std::string_view rule) const;
  double minCostShare() const { return *values_.minCostShare; }
  double minProgramShare() const { return *values_.minProgramShare; }
  // Microseconds of memory time per run of the program under which a finding whose every count
  // is the program's own (grid, loop trips, launches per run) is a note (filter.cpp).
  double minWastePerRun() const { return *values_.minWastePerRun; }
  // No global value: the rule's option, else its default threshold, else 0 (any share).
  double minDivergentShare(std::string_view rule) const;
  // No global values either: the rule's option, else its default threshold.
  double minOccupancy(std::string_view rule) const;
  double minReuse(std::string_view rule) const;
  // Whether findings located in `path` are hidden by Exclude, SystemHeaders or, for a
  // header (a file that is not one of the analysed files), HeaderFilter.
  bool hidesPath(const std::string& path, bool isMainFile) const;

  const Options& values() const { return values_; }  // every field set
  const std::string& source() const { return source_; }

 private:
  Options values_;
  std::string source_;
  std::shared_ptr<const CompiledPatterns> patterns_;
};

// The effective settings as YAML that parseConfig reads back to the same Config:
// every key, and every option of every rule.
std::string dumpConfig(const Config& config);

// Hands out the Config for each file, loading each directory's file once.
class ConfigProvider {
 public:
  // explicitFile: --config FILE, used for every file instead of the lookup.
  // overrides: command-line values, applied over whatever file applies.
  explicit ConfigProvider(std::optional<std::string> explicitFile = std::nullopt, Options overrides = {});
  ~ConfigProvider();
  ConfigProvider(const ConfigProvider&) = delete;
  ConfigProvider& operator=(const ConfigProvider&) = delete;

  Result<const Config*> configFor(const std::string& path);

 private:
  struct Cache;
  std::optional<std::string> explicitFile_;
  Options overrides_;
  std::unique_ptr<Cache> cache_;
};

}  // namespace coalesce::report
