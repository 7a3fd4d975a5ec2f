// A fixed set of records pointing into data/golden/kernels.cu, with every rule, a good
// access of each kind, branches, barriers and pointer parameters, a NOLINT, a third-party
// header and a file that failed: the input of the golden-file tests and of the SARIF
// schema test.
#pragma once

#include <string>

#include "coalesce/records/records.h"
#include "coalesce/report/report.h"

namespace coalesce::test {

std::string goldenDataDir();  // test/report/data/golden
AnalysisResult goldenAnalysis();
// Rules and the filter run on goldenAnalysis() with golden.coalesce-lint.yaml; fixed
// time and tool version so the output does not depend on the build.
report::Report goldenReport(const AnalysisResult& analysis);

}  // namespace coalesce::test
