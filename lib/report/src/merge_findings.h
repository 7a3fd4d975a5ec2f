// One finding per source place and rule. The records hold one access per instruction the
// place compiles to in each kernel: a template kernel's instantiations repeat every access,
// a struct copied from memory gives one access per piece at the same column. Reported as
// they are, one place would warn once per copy (a scan: 337 warnings for 36 places). The
// findings of one place and rule merge into the worst of them, which lists what it covers.
#pragma once

#include <vector>

#include "coalesce/records/records.h"
#include "coalesce/report/finding.h"

namespace coalesce::report {

// Sets each finding's kernel from the record it is about, then merges the findings of one
// (rule, file, line, column): the worst stays (lowest efficiency, highest conflict degree,
// largest divergent share), with the kernels and fields the others add and, when they
// differ, the typical figure beside the worst. Order: findingBefore.
std::vector<Finding> mergeByPlace(std::vector<Finding> findings, const AnalysisResult& analysis);

}  // namespace coalesce::report
