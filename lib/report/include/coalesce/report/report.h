// What every writer reads: the analysis records, the filtered findings and what the
// filter dropped. Writers never recompute figures; they print these.
#pragma once

#include <string>
#include <vector>

#include "coalesce/report/filter.h"
#include "coalesce/report/finding.h"
#include "coalesce/records/records.h"

namespace coalesce::report {

struct ToolInfo {
  std::string name = "coalesce-lint";
  std::string version;         // the project version this library was built from
  std::string informationUri;  // SARIF driver.informationUri; omitted when empty
};
ToolInfo defaultToolInfo();

struct Report {
  const AnalysisResult* analysis = nullptr;  // required
  std::vector<Finding> findings;             // after filterFindings
  FilterStats stats;
  std::string arch = "sm_90";
  double seconds = 0;                        // wall time of the run, for the summary
  size_t cachedFiles = 0;                    // files whose records came from the result cache
  size_t filesLeftOutByDiff = 0;             // files the diff did not reach (not analysed)
  bool diffAware = false;                    // --changed-lines / --diff-base: findings gated on the diff
  ToolInfo tool = defaultToolInfo();
};

}  // namespace coalesce::report
