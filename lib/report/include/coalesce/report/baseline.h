// Baselines: the findings a legacy tree already has, so CI fails only on new ones.
// Entries are keyed on rule, path and the trimmed text of the line, never its number,
// so they survive edits above them; identical keys are counted.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "coalesce/report/finding.h"
#include "coalesce/report/result.h"

namespace coalesce::report {

inline constexpr int kBaselineVersion = 1;

struct BaselineEntry {
  std::string rule;
  std::string path;      // normalised: forward slashes, no "./"
  std::string lineText;  // trimmed
  int count = 1;
};

class Baseline {
 public:
  static Baseline fromFindings(const std::vector<Finding>& findings);
  static Result<Baseline> parse(std::string_view json, const std::string& origin);
  static Result<Baseline> load(const std::string& path);

  // {"version": 1, "tool": "coalesce-lint", "entries": [...]}, entries sorted.
  std::string toJson() const;
  MaybeError save(const std::string& path) const;

  const std::vector<BaselineEntry>& entries() const { return entries_; }

 private:
  std::vector<BaselineEntry> entries_;
};

// Matches findings against a baseline; each entry absorbs at most `count` findings.
class BaselineMatcher {
 public:
  explicit BaselineMatcher(const Baseline& baseline);
  // True (and one use of the entry spent) when the finding is in the baseline.
  bool consume(const Finding& finding);

 private:
  std::map<std::tuple<std::string, std::string, std::string>, int> remaining_;
};

// The path form baselines store and compare.
std::string normaliseBaselinePath(std::string_view path);

}  // namespace coalesce::report
