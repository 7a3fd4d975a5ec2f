// The one filtering stage: every candidate finding passes through here once, in this
// order, and each step counts what it drops:
//   1. disabled       the rule is not in the file's Checks
//   2. below threshold eta >= MinEfficiency, degree <= MaxConflictDegree, or share of split
//                     warp requests < MinDivergentShare (per rule)
//   3. excluded       Exclude globs, system headers, HeaderFilter
//   4. suppressed     NOLINT, NOLINTNEXTLINE, NOLINTBEGIN/END in the source text
//   5. unchanged      not on a line the diff adds or changes (diff-aware runs only)
//   6. baselined      present in the baseline
// Survivors get their severity (per rule, capped by the finding's severityCap, a note when
// the waste is under MinCostShare of the kernel's traffic, then WarningsAsErrors), are
// sorted and ranked by cost.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "coalesce/report/baseline.h"
#include "coalesce/report/changed_lines.h"
#include "coalesce/report/config.h"
#include "coalesce/report/finding.h"
#include "coalesce/report/result.h"
#include "coalesce/report/source_reader.h"

namespace coalesce::report {

struct FilterStats {
  size_t candidates = 0;
  size_t disabled = 0;
  size_t belowThreshold = 0;
  size_t excluded = 0;
  size_t suppressed = 0;
  size_t baselined = 0;
  size_t unchanged = 0;  // not on a changed line (--changed-lines, --diff-base)
};

struct FilterInputs {
  ConfigProvider* configs = nullptr;   // required: the settings of each finding's file
  SourceReader readSource;             // required: for NOLINT comments and line texts
  const Baseline* baseline = nullptr;  // optional
  std::vector<std::string> mainFiles;  // the analysed files; any other file is a header
  const ChangedLines* changedLines = nullptr;  // optional: only findings on these lines pass
};

struct FilterOutcome {
  std::vector<Finding> findings;  // shown, sorted; includes unmatched-NOLINTBEGIN errors
  FilterStats stats;
};

// Fails only when a configuration file that applies cannot be read or is invalid.
Result<FilterOutcome> filterFindings(std::vector<Finding> candidates, const FilterInputs& inputs);

// Sets Finding::rank: 1 for the costliest finding that has a cost, then in order of the
// bytes they waste per launch (ties in the findings' order); 0 for findings without one.
void rankByCost(std::vector<Finding>& findings);

// The paths of the analysed files of an analysis result, for FilterInputs::mainFiles.
std::vector<std::string> mainFilesOf(const AnalysisResult& analysis);

}  // namespace coalesce::report
